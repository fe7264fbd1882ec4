/**
 * Proxies on 127.0.0.1 that stop talking at one chosen point, for the proxy
 * check's deadline: each accepts the TCP connection, plays its protocol up
 * to that point, then stays silent (reads everything, answers nothing, never
 * closes) until the test closes it. None of them connects anywhere.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export type Stall =
  /** SOCKS5: reads the greeting and never answers it. */
  | 'socks5-greeting'
  /** SOCKS5: answers the greeting, reads the CONNECT request and never answers it. */
  | 'socks5-connect-reply'
  /** SOCKS5: completes the handshake (reply 0), then passes nothing either way. */
  | 'socks5-after-handshake'
  /** HTTP: reads the CONNECT request and never answers it. */
  | 'http-connect-reply'
  /** HTTP: answers CONNECT with 200, then passes nothing either way (a TLS handshake stalls). */
  | 'http-after-connect'
  /** HTTP: reads a forwarded request and never answers it. */
  | 'http-headers'
  /** HTTP: answers a forwarded request with headers announcing a body, then sends none of it. */
  | 'http-body';

export interface StallingProxy {
  port: number;
  /** Connections accepted. */
  hits: number;
  /** Every byte the proxy received, as latin1 text (to see what the client sent). */
  received: string;
  close(): Promise<void>;
}

const headEnd = '\r\n\r\n';

/** A TCP server on 127.0.0.1 that hands each connection, and the bytes it sends, to `onData`. */
async function serve(onData: (client: Socket, chunk: Buffer, state: { step: number; buffer: Buffer }) => void): Promise<StallingProxy> {
  const sockets = new Set<Socket>();
  const proxy: StallingProxy = { port: 0, hits: 0, received: '', close: async () => undefined };
  const server = createServer((client) => {
    proxy.hits++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const state = { step: 0, buffer: Buffer.alloc(0) };
    client.on('data', (chunk: Buffer) => {
      proxy.received += chunk.toString('latin1');
      state.buffer = Buffer.concat([state.buffer, chunk]);
      onData(client, chunk, state);
    });
  });
  proxy.port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

export function startStallingProxy(stall: Stall): Promise<StallingProxy> {
  return serve((client, _chunk, state) => {
    if (stall.startsWith('socks5')) {
      if (state.step === 0 && state.buffer.length >= 2 && state.buffer.length >= 2 + state.buffer[1]!) {
        state.buffer = state.buffer.subarray(2 + state.buffer[1]!);
        state.step = 1;
        if (stall === 'socks5-greeting') return;
        client.write(Buffer.from([5, 0]));
      }
      if (state.step === 1 && state.buffer.length >= 5) {
        const atyp = state.buffer[3];
        const length = 4 + (atyp === 1 ? 4 : atyp === 3 ? 1 + state.buffer[4]! : 16) + 2;
        if (state.buffer.length < length) return;
        state.buffer = state.buffer.subarray(length);
        state.step = 2;
        if (stall === 'socks5-connect-reply') return;
        client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
      }
      return;
    }
    // HTTP: one request head, then silence (or the one answer the stall allows).
    if (state.step !== 0 || !state.buffer.includes(headEnd)) return;
    state.step = 1;
    if (stall === 'http-after-connect') client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (stall === 'http-body') client.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n127.');
  });
}

/** Answers the first request head with `answer` and closes: an HTTP status (403, 407) or bytes of another protocol. */
export function startAnsweringProxy(answer: number | Buffer): Promise<StallingProxy> {
  return serve((client, _chunk, state) => {
    if (state.step !== 0 || !state.buffer.includes(headEnd)) return;
    state.step = 1;
    client.end(typeof answer === 'number' ? `HTTP/1.1 ${answer} No\r\ncontent-length: 0\r\n\r\n` : answer);
  });
}
