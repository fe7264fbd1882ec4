/**
 * Tiny proxies and a target on 127.0.0.1 for the proxy check: an HTTP
 * proxy (absolute-form forwarding and CONNECT), a SOCKS5 proxy (RFC 1928,
 * no auth, CONNECT), and a target that answers with the caller's address.
 * The proxies leave from 127.0.0.2 (still loopback), so the address the
 * target reports proves the request went through the proxy.
 */
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';

export const EGRESS = '127.0.0.2';

export interface Running {
  port: number;
  /** TCP connections the server accepted. */
  hits: number;
  close(): Promise<void>;
}

function listen(server: Server | HttpServer, sockets: Set<Socket>, running: Running): Promise<number> {
  server.on('connection', (s: Socket) => {
    running.hits++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closer(server: Server | HttpServer, sockets: Set<Socket>) {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** Answers every request with the caller's address as plain text (like api.ipify.org). */
export async function startEchoTarget(answer?: (address: string) => string): Promise<Running> {
  const sockets = new Set<Socket>();
  const running = { port: 0, hits: 0, close: async (): Promise<void> => undefined };
  const server = createHttpServer((req, res) => {
    const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(answer ? answer(address) : address);
  });
  running.port = await listen(server, sockets, running);
  running.close = closer(server, sockets);
  return running;
}

export async function startHttpProxy(): Promise<Running> {
  const sockets = new Set<Socket>();
  const running = { port: 0, hits: 0, close: async (): Promise<void> => undefined };
  const server = createHttpServer((req, res) => {
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
        localAddress: EGRESS,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end('upstream failed'));
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect({ host, port: Number(port), localAddress: EGRESS }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  });
  running.port = await listen(server, sockets, running);
  running.close = closer(server, sockets);
  return running;
}

/** RFC 1928 with method 0 only; IPv4 and domain addresses; answers a refused target with reply 5. */
export async function startSocks5Proxy(): Promise<Running> {
  const sockets = new Set<Socket>();
  const running = { port: 0, hits: 0, close: async (): Promise<void> => undefined };
  const server = createNetServer((client) => {
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'request' | 'piping' = 'greeting';
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === 'greeting') {
        if (buffer[0] !== 5) return client.destroy(); // not SOCKS5: hang up, as real servers do
        if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
        buffer = buffer.subarray(2 + buffer[1]!);
        client.write(Buffer.from([5, 0]));
        stage = 'request';
      }
      if (stage === 'request') {
        if (buffer.length < 5) return;
        const atyp = buffer[3];
        const addrLen = atyp === 1 ? 4 : atyp === 3 ? 1 + buffer[4]! : 16;
        if (buffer.length < 4 + addrLen + 2) return;
        const host = atyp === 1 ? [...buffer.subarray(4, 8)].join('.') : buffer.subarray(5, 5 + buffer[4]!).toString();
        const port = buffer.readUInt16BE(4 + addrLen);
        const rest = buffer.subarray(4 + addrLen + 2);
        stage = 'piping';
        client.off('data', onData);
        const upstream = connect({ host, port, localAddress: EGRESS }, () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 2, 0, 0]));
          upstream.write(rest);
          upstream.pipe(client).pipe(upstream);
        });
        upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
      }
    };
    client.on('data', onData);
    client.on('error', () => undefined);
  });
  running.port = await listen(server, sockets, running);
  running.close = closer(server, sockets);
  return running;
}

/** A port with nothing listening: bound, noted, closed. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
