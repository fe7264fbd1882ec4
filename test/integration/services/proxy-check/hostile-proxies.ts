/**
 * SOCKS5 proxies on 127.0.0.1 that misbehave after a good start: each
 * answers the greeting and the CONNECT request like a real one (reply 0),
 * then floods the connection with bytes that are no HTTP answer, or hangs
 * up. None of them connects anywhere. `hits` counts the TCP connections
 * they accepted: the check must open exactly one.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export type Misbehaviour =
  /** After the success reply, writes 64 KiB chunks of 'A' as fast as the socket takes them, until the client goes. */
  | 'flood'
  /** Closes the connection right after the success reply. */
  | 'close-after-reply'
  /** Answers the greeting, then closes before any reply to CONNECT. */
  | 'close-after-greeting'
  /** Sends the first byte of the greeting's answer, then closes. */
  | 'close-mid-greeting';

export interface HostileProxy {
  port: number;
  hits: number;
  close(): Promise<void>;
}

export async function startHostileSocks5(how: Misbehaviour): Promise<HostileProxy> {
  const sockets = new Set<Socket>();
  const proxy: HostileProxy = { port: 0, hits: 0, close: async () => undefined };
  const junk = Buffer.alloc(64 * 1024, 0x41);
  const server = createServer((client) => {
    proxy.hits++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    let step = 0;
    let buffer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (step === 0 && buffer.length >= 2 && buffer.length >= 2 + buffer[1]!) {
        buffer = buffer.subarray(2 + buffer[1]!);
        step = 1;
        if (how === 'close-mid-greeting') return void client.end(Buffer.from([5]));
        client.write(Buffer.from([5, 0]));
        if (how === 'close-after-greeting') return void client.end();
      }
      if (step === 1 && buffer.length >= 5) {
        const atyp = buffer[3];
        const length = 4 + (atyp === 1 ? 4 : atyp === 3 ? 1 + buffer[4]! : 16) + 2;
        if (buffer.length < length) return;
        step = 2;
        const reply = Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]);
        if (how === 'close-after-reply') return void client.end(reply);
        client.write(reply);
        const pump = () => {
          while (!client.destroyed && client.write(junk));
        };
        client.on('drain', pump);
        pump();
      }
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
