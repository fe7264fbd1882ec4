/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that keeps
 * every request (method, path, headers, body) and answers with the status
 * the test chose, one per request in turn (the last repeats), or as a
 * test's own handler answers (an echo, a page, an endless body).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedRequest[];
  /** The statuses to answer with, in turn; default 200. */
  answer(...statuses: number[]): void;
  /** Answers every request with `handler` instead (until `answer` is called again). */
  respond(handler: (req: ReceivedRequest, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  let statuses = [200];
  let handler: ((req: ReceivedRequest, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      if (handler) return handler(got, res);
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      res.writeHead(status, { 'content-type': 'application/json' }).end(status < 300 ? '{"id":1}' : '{"error":"refused"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (...next) => {
      handler = undefined;
      statuses = next.length > 0 ? next : [200];
    },
    respond: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
