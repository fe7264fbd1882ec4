/**
 * An answer with a huge body for an http(s) server's handler, written only as
 * fast as the client reads it, recording how much went out and whether it all
 * did: a client that stops reading at its bound leaves `ended` false and
 * `written` near that bound (plus the sockets' buffers).
 */
import type { ServerResponse } from 'node:http';

export interface Streamed {
  written: number;
  ended: boolean;
}

export function endlessAnswer(status: number, size: number, log: Streamed[], contentType = 'text/plain') {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  return (_req: unknown, res: ServerResponse): void => {
    const sent: Streamed = { written: 0, ended: false };
    log.push(sent);
    res.writeHead(status, { 'content-type': contentType, 'content-length': String(size) });
    const pump = () => {
      while (sent.written < size && !res.destroyed) {
        sent.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) {
        sent.ended = true;
        res.end();
      }
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  };
}
