/**
 * An HTTP CONNECT tunnel (RFC 9110 §9.3.6) over a socket already connected
 * to the proxy: sends the request, reads the proxy's answer head and leaves
 * the socket ready for the target's protocol (TLS, for an https target).
 */
import { isIPv6, type Socket } from 'node:net';
import { headersOf } from './proxy-page';
import { readHead } from './read-bytes';

/** `auth-refused`: credentials were sent and the proxy still answered 407. */
export type HttpConnectFailure = 'not-http' | 'auth-required' | 'auth-refused' | 'refused-target';

export class HttpConnectError extends Error {
  constructor(
    readonly failure: HttpConnectFailure,
    message: string,
    readonly status?: number,
    /** The proxy's answer head, lower-case names (proxy-page.ts tells its own page from it). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A proxy's answer head is a few hundred bytes; more than this is not one. */
const MAX_HEAD = 16 * 1024;
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/;

/** Throws as soon as what came cannot be the start of an HTTP/1.x answer. */
function checkPrefix(sofar: Buffer): void {
  const text = sofar.subarray(0, 8).toString('latin1');
  if (!'HTTP/1.'.startsWith(text.slice(0, 7)) || (text.length === 8 && !/[01]/.test(text[7]!)))
    throw new HttpConnectError('not-http', 'the proxy answered the CONNECT request with something other than HTTP');
  if (sofar.length > MAX_HEAD) throw new HttpConnectError('not-http', `the proxy's answer head is longer than ${MAX_HEAD} bytes`);
}

/** RFC 7617 Basic credentials for `Proxy-Authorization` (RFC 9110 §11.7.2). */
export function basicProxyAuthorization(credentials: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
}

export async function httpConnect(
  socket: Socket,
  host: string,
  port: number,
  signal?: AbortSignal,
  credentials?: { username: string; password: string },
): Promise<void> {
  const authority = `${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const auth = credentials ? `Proxy-Authorization: ${basicProxyAuthorization(credentials)}\r\n` : '';
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nUser-Agent: Egress Desk proxy check\r\n${auth}\r\n`);
  const head = (await readHead(socket, checkPrefix, signal)).toString('latin1');
  const status = Number(STATUS_LINE.exec(head)?.[1] ?? NaN);
  if (Number.isNaN(status)) throw new HttpConnectError('not-http', 'the proxy answered the CONNECT request without an HTTP status line');
  if (status >= 200 && status < 300) return;
  const headers = headersOf(head);
  // tinyproxy answers wrong credentials with 401, not 407 (its reqs.c): on CONNECT, that is the proxy's own answer.
  if (status === 407 || (status === 401 && credentials))
    throw credentials
      ? new HttpConnectError('auth-refused', 'the HTTP proxy refused the username and password (HTTP 407)', status, headers)
      : new HttpConnectError('auth-required', 'the HTTP proxy asks for credentials (HTTP 407) before it opens a tunnel', status, headers);
  throw new HttpConnectError('refused-target', `the proxy refused to open a tunnel to ${authority} (HTTP ${status})`, status, headers);
}
