/**
 * The undici client that sends the check's request through the proxy. Its
 * connector opens the way to the target step by step, each step bounded by
 * the check's one deadline and noted on it: the TCP connection to the proxy,
 * then the SOCKS5 handshake, or the HTTP CONNECT request (for an https
 * target), then TLS with the target (https). A plain http target through an
 * HTTP proxy needs no tunnel: the request goes to the proxy in absolute form
 * (see `requestPath`), as RFC 9112 §3.2.2 asks of a client talking to a proxy.
 *
 * undici's own ProxyAgent is not used: it bounds the tunnel's TLS handshake
 * with its default 10 s connect timeout whatever `connect.timeout` says, waits
 * for the CONNECT answer with no bound at all, and cannot say which step hung.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Client, type Dispatcher } from 'undici';
import type { ProxyProtocol } from '../../../shared/channels/proxy-check';
import type { Deadline } from './deadline';
import { httpConnect } from './http-connect';
import { socks5Handshake } from './socks5';

export interface ProxyEndpoint {
  host: string;
  port: number;
  protocol: ProxyProtocol;
  /** Sent to the proxy (issue 24): Proxy-Authorization for HTTP, RFC 1929 for SOCKS5. */
  credentials?: { username: string; password: string } | undefined;
}

/**
 * The check's one connection to the proxy, as far as it got: when the TCP
 * connect finished, and how many bytes the proxy sent on it (the handshake's
 * included), which tells a proxy that never answered from one that stopped
 * part way.
 */
export class ProxyConnection {
  connectMs: number | undefined;
  socket: Socket | undefined;
  /** This computer's address on the connection and the proxy's, as the socket had them once connected (gone once it closes). */
  ends: { local?: string; proxy?: string } = {};
  /** Whether undici has had its connection: it asks for another when it throws one away before the request ran. */
  opened = false;
  /** What ended the connection, as undici reported it. */
  lost: Error | undefined;

  get answered(): boolean {
    return (this.socket?.bytesRead ?? 0) > 0;
  }
}

/**
 * undici asked for a second connection: the first was thrown away before the
 * request ran (bytes before the request, or a close). The check opens one
 * connection and no more; `cause` is what ended the first.
 */
export class ConnectionLost extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : 'the connection to the proxy was lost');
  }
}

/** Destroys the socket when the signal aborts, until `done` is called. */
function destroyOnAbort(socket: Socket, signal: AbortSignal): () => void {
  const onAbort = () => socket.destroy(signal.reason as Error);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

const ignore = () => undefined;

/**
 * A TCP connection to host:port, given up (and the socket destroyed) when the
 * signal aborts. The socket keeps a listener for errors, so one between two
 * reads of the handshake cannot go unhandled; each read still sees it.
 */
export function connectTcp(host: string, port: number, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const socket = netConnect({ host, port });
    const done = destroyOnAbort(socket, signal);
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      done();
      socket.off('error', onError);
      socket.on('error', ignore);
      resolve(socket);
    });
  });
}

/**
 * TLS with the target over the tunnel; the certificate is checked against the
 * system's CAs (or `ca`) and against `host`, a name (also sent as SNI) or an
 * address. Without `host`, Node would check the certificate against "localhost".
 */
function tlsOver(socket: Socket, host: string, signal: AbortSignal, ca?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({ socket, host, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...(ca ? { ca } : {}) });
    const done = destroyOnAbort(tls, signal);
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    tls.once('error', onError);
    tls.once('secureConnect', () => {
      done();
      tls.off('error', onError);
      resolve(tls);
    });
  });
}

/** Whether the request goes to an HTTP proxy in absolute form, with no tunnel. */
function forwards(proxy: ProxyEndpoint, target: URL): boolean {
  return proxy.protocol === 'http' && target.protocol === 'http:';
}

/** Whether the request goes through a tunnel the proxy opens (SOCKS5, or CONNECT for an https target). */
export function tunnels(proxy: ProxyEndpoint, target: URL): boolean {
  return !forwards(proxy, target);
}

/** The request-target to send: absolute form when the proxy forwards, origin form inside a tunnel. */
export function requestPath(proxy: ProxyEndpoint, target: URL): string {
  return forwards(proxy, target) ? target.href : `${target.pathname}${target.search}`;
}

function connector(proxy: ProxyEndpoint, target: URL, deadline: Deadline, connection: ProxyConnection, ca?: string) {
  const secure = target.protocol === 'https:';
  const port = Number(target.port) || (secure ? 443 : 80);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const { signal } = deadline;
  const open = async (): Promise<Socket> => {
    deadline.enter('proxy-connect');
    const started = performance.now();
    const socket = await connectTcp(proxy.host, proxy.port, signal);
    connection.connectMs = Math.round(performance.now() - started);
    connection.socket = socket;
    connection.ends = { local: socket.localAddress, proxy: socket.remoteAddress };
    try {
      if (proxy.protocol === 'socks5') {
        deadline.enter('socks5-greeting');
        await socks5Handshake(socket, host, port, {
          signal,
          greeted: () => deadline.enter('socks5-connect'),
          credentials: proxy.credentials,
        });
      } else if (secure) {
        deadline.enter('http-connect');
        await httpConnect(socket, host, port, signal, proxy.credentials);
      }
      if (!secure) {
        deadline.enter('headers');
        return socket;
      }
      deadline.enter('tls');
      const tls = await tlsOver(socket, host, signal, ca);
      deadline.enter('headers');
      return tls;
    } catch (e) {
      socket.destroy();
      throw e;
    }
  };
  return (_opts: unknown, callback: (...args: [null, Socket] | [Error, null]) => void) => {
    // A second call means undici threw the first connection away; opening another would repeat
    // whatever the proxy did to it, as fast as it can do it. The request fails with what happened.
    if (connection.opened) return callback(new ConnectionLost(connection.lost), null);
    connection.opened = true;
    open().then(
      (socket) => callback(null, socket),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), null),
    );
  };
}

/**
 * One connection, one request; undici's own timeouts are set to the check's timeout too, as a second bound.
 * `connection` is filled in as the connection goes. `ca`: the CA certificates (PEM) the target's
 * certificate is checked against instead of the system's.
 */
export function dispatcherFor(proxy: ProxyEndpoint, target: URL, deadline: Deadline, connection: ProxyConnection, ca?: string): Dispatcher {
  const client = new Client(target.origin, {
    connect: connector(proxy, target, deadline, connection, ca),
    pipelining: 0,
    headersTimeout: deadline.ms,
    bodyTimeout: deadline.ms,
  });
  // Told before undici asks for the next connection, so the refusal carries the reason.
  client.on('disconnect', (_origin, _targets, error) => {
    connection.lost ??= error;
  });
  return client;
}
