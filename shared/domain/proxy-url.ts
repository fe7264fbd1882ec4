/**
 * Issue 24 §3: a proxy's URL as its clients are given it. The scheme says how
 * a client talks to it: `http://` for an HTTP proxy, `socks5h://` for SOCKS5,
 * the form curl, git, pip and Python's requests read as "resolve names at
 * the proxy" (plain `socks5://` makes the client resolve them itself, which
 * leaks every name to the local resolver and fails for names only the proxy's
 * network knows). IPv6 hosts are bracketed (RFC 3986 §3.2.2). Credentials go
 * into the userinfo only when given, each part percent-encoded (RFC 3986
 * §3.2.1: a `:`, `@` or `/` in a password must not end the userinfo).
 */
import type { ProxyEndpoint } from './proxy-endpoint';

export interface UrlCredentials {
  username: string;
  password: string;
}

/** The scheme a client is given for each protocol. */
export const clientScheme = { http: 'http', socks5: 'socks5h' } as const satisfies Record<ProxyEndpoint['protocol'], string>;

/** A host as it stands before `:port`: an IPv6 address in brackets, anything else as it is. */
export const hostForPort = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** `host:port`, the IPv6 host bracketed (`[fd00::5]:3128`). */
export const hostPort = (host: string, port: number) => `${hostForPort(host)}:${port}`;

/** encodeURIComponent, plus the four sub-delims it leaves as they are, so a userinfo reads the same to every URL parser. */
export const encodeUserinfo = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The proxy's URL (`http://10.0.0.5:3128`, `socks5h://user:p%40ss@[fd00::5]:1080`). */
export function proxyUrl(endpoint: ProxyEndpoint, host: string, credentials?: UrlCredentials): string {
  const userinfo = credentials ? `${encodeUserinfo(credentials.username)}:${encodeUserinfo(credentials.password)}@` : '';
  return `${clientScheme[endpoint.protocol]}://${userinfo}${hostPort(host, endpoint.port)}`;
}
