/**
 * The undici dispatcher that sends a request through the proxy: undici's
 * ProxyAgent for an HTTP proxy (forwarding for http targets, CONNECT for
 * https), and an Agent whose connector opens a SOCKS5 tunnel for a SOCKS5
 * proxy, with TLS on top for https targets.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { ProxyProtocol } from '../../../shared/channels/proxy-check';
import { socks5Handshake } from './socks5';

export interface ProxyEndpoint {
  host: string;
  port: number;
  protocol: ProxyProtocol;
}

/** Marks an error raised while talking to the proxy itself, before the target's answer. */
export class HandshakeError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

function connectTcp(host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(Object.assign(new Error(`no answer from ${host}:${port} in ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function socksConnector(proxy: ProxyEndpoint, timeoutMs: number) {
  return (
    opts: { hostname: string; port: string; protocol: string; servername?: string },
    callback: (...args: [null, Socket] | [Error, null]) => void,
  ) => {
    const secure = opts.protocol === 'https:';
    const port = Number(opts.port) || (secure ? 443 : 80);
    const host = opts.hostname.replace(/^\[(.*)\]$/, '$1');
    void (async () => {
      const socket = await connectTcp(proxy.host, proxy.port, timeoutMs);
      const timer = setTimeout(
        () => socket.destroy(new Error(`the proxy did not finish the SOCKS5 handshake in ${timeoutMs} ms`)),
        timeoutMs,
      );
      try {
        await socks5Handshake(socket, host, port);
      } catch (e) {
        socket.destroy();
        throw new HandshakeError(e);
      } finally {
        clearTimeout(timer);
      }
      if (!secure) return socket;
      const servername = opts.servername ?? (isIP(host) ? undefined : host);
      return await new Promise<Socket>((resolve, reject) => {
        const tls = tlsConnect({ socket, servername });
        tls.once('secureConnect', () => resolve(tls));
        tls.once('error', reject);
      });
    })().then(
      (socket) => callback(null, socket),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), null),
    );
  };
}

export function dispatcherFor(proxy: ProxyEndpoint, timeoutMs: number): Dispatcher {
  const common = { connections: 1, pipelining: 0, headersTimeout: timeoutMs, bodyTimeout: timeoutMs } as const;
  if (proxy.protocol === 'socks5') return new Agent({ ...common, connect: socksConnector(proxy, timeoutMs) });
  const host = isIP(proxy.host) === 6 ? `[${proxy.host}]` : proxy.host;
  return new ProxyAgent({ ...common, uri: `http://${host}:${proxy.port}`, connect: { timeout: timeoutMs } });
}

export { connectTcp };
