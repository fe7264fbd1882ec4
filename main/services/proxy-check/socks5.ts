/**
 * A SOCKS5 client per RFC 1928, CONNECT only: enough to send one request
 * through an egress proxy. With credentials it offers only the
 * username/password method (RFC 1929), as a client that has them does;
 * without, only "no authentication". Resolves with the connected socket,
 * ready for the target's protocol.
 */
import { isIPv4, isIPv6, type Socket } from 'node:net';
import { readBytes } from './read-bytes';

const VERSION = 0x05;
const NO_AUTH = 0x00;
const USER_PASS = 0x02;
/** RFC 1929 §2: the sub-negotiation's own version byte. */
const USER_PASS_VERSION = 0x01;
const NO_ACCEPTABLE_METHOD = 0xff;
const CMD_CONNECT = 0x01;
const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;

/** RFC 1928 §6 reply codes. */
const replyTexts: Record<number, string> = {
  1: 'general SOCKS server failure',
  2: 'connection not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
};

/** `auth-refused`: the credentials were offered and refused (no acceptable method, or RFC 1929 status not 0). */
export type Socks5Failure = 'not-socks5' | 'auth-required' | 'auth-refused' | 'refused-target';

export class Socks5Error extends Error {
  constructor(
    readonly failure: Socks5Failure,
    message: string,
  ) {
    super(message);
  }
}

function addressBytes(host: string): Buffer {
  if (isIPv4(host)) return Buffer.from([ATYP_IPV4, ...host.split('.').map(Number)]);
  if (isIPv6(host)) {
    const u = new URL(`http://[${host}]/`).hostname.slice(1, -1); // normalised, then expanded below
    const groups = expandIpv6(u);
    return Buffer.concat([Buffer.from([ATYP_IPV6]), Buffer.from(groups.flatMap((g) => [g >> 8, g & 0xff]))]);
  }
  const name = Buffer.from(host, 'utf8');
  if (name.length > 255) throw new Error('the target host name is longer than SOCKS5 allows (255 bytes)');
  return Buffer.concat([Buffer.from([ATYP_DOMAIN, name.length]), name]);
}

function expandIpv6(text: string): number[] {
  const [head = '', tail = ''] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = text.includes('::') ? parse(tail) : [];
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

export interface Socks5Options {
  /** Aborts every wait for the proxy's bytes (rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Called once the proxy accepted the greeting, before the CONNECT request goes out. */
  greeted?: () => void;
  /** The proxy's username and password (RFC 1929); absent: no authentication is offered. */
  credentials?: { username: string; password: string } | undefined;
}

/** RFC 1929 §2: VER 1, ULEN, UNAME, PLEN, PASSWD (each 1 to 255 bytes). */
function userPassRequest(username: string, password: string): Buffer {
  const u = Buffer.from(username, 'utf8');
  const p = Buffer.from(password, 'utf8');
  if (u.length < 1 || u.length > 255 || p.length < 1 || p.length > 255)
    throw new Socks5Error('auth-refused', 'the username and password must each be 1 to 255 bytes for SOCKS5');
  return Buffer.concat([Buffer.from([USER_PASS_VERSION, u.length]), u, Buffer.from([p.length]), p]);
}

/** Greets, asks for a CONNECT to host:port and checks the reply; the socket must already be connected to the proxy. */
export async function socks5Handshake(socket: Socket, host: string, port: number, options: Socks5Options = {}): Promise<void> {
  const { signal, credentials } = options;
  const offered = credentials ? USER_PASS : NO_AUTH;
  socket.write(Buffer.from([VERSION, 1, offered]));
  const [version, method] = await readBytes(socket, 2, signal);
  if (version !== VERSION)
    throw new Socks5Error(
      'not-socks5',
      `the proxy answered the SOCKS5 greeting with byte 0x${(version ?? 0).toString(16)}, not a SOCKS5 answer`,
    );
  if (method === NO_ACCEPTABLE_METHOD)
    throw credentials
      ? new Socks5Error('auth-refused', 'the SOCKS5 proxy does not accept a username and password (no acceptable method)')
      : new Socks5Error('auth-required', 'the SOCKS5 proxy accepts no connection without authentication');
  if (method !== offered)
    throw new Socks5Error('not-socks5', `the SOCKS5 proxy chose method 0x${(method ?? 0).toString(16)}, which was not offered`);
  if (credentials) {
    socket.write(userPassRequest(credentials.username, credentials.password));
    const [subVersion, status] = await readBytes(socket, 2, signal);
    if (subVersion !== USER_PASS_VERSION && subVersion !== VERSION)
      throw new Socks5Error('not-socks5', 'the proxy answered the username and password with something other than RFC 1929');
    if (status !== 0) throw new Socks5Error('auth-refused', 'the SOCKS5 proxy refused the username and password');
  }
  options.greeted?.();

  const portBytes = Buffer.from([port >> 8, port & 0xff]);
  socket.write(Buffer.concat([Buffer.from([VERSION, CMD_CONNECT, 0x00]), addressBytes(host), portBytes]));
  const [replyVersion, reply, , atyp] = await readBytes(socket, 4, signal);
  if (replyVersion !== VERSION)
    throw new Socks5Error('not-socks5', 'the proxy answered the CONNECT request with something other than SOCKS5');
  if (reply !== 0)
    throw new Socks5Error(
      'refused-target',
      `the SOCKS5 proxy could not connect to ${host}:${port}: ${replyTexts[reply ?? 1] ?? `reply code ${reply}`}`,
    );
  // The bound address the proxy reports; read and dropped so the target's bytes start clean.
  const length = atyp === ATYP_IPV4 ? 4 : atyp === ATYP_IPV6 ? 16 : (await readBytes(socket, 1, signal))[0]!;
  await readBytes(socket, length + 2, signal);
}
