/**
 * Issue 23 item 5: the one protocol and port of a proxy, for every place
 * that names it (the drawer's address and its copy button, Test, the
 * scheduled checks). The app cannot see which daemon a guest runs; what it
 * knows is the user-data it put into the seed, so the port is read from
 * there, in the daemons' own config words (the Create presets write them):
 * Squid's `http_port`, tinyproxy's `Port`, microsocks' `-p`, Dante's
 * `internal: … port = N` (SOCKS5). Main keeps the result per proxy
 * (proxy-records.ts) and a Test's protocol and port override it. The URL a client is given: proxy-url.ts.
 */

export type EndpointProtocol = 'http' | 'socks5';

export interface ProxyEndpoint {
  protocol: EndpointProtocol;
  port: number;
}

/** Each protocol's usual port: Squid's 3128, SOCKS5's 1080 (what a protocol switch in Test starts from). */
export const DEFAULT_PORT: Record<EndpointProtocol, number> = { http: 3128, socks5: 1080 };

/** A proxy the app knows nothing of: Squid's port, the Create dialog's first preset. */
export const DEFAULT_ENDPOINT: ProxyEndpoint = { protocol: 'http', port: DEFAULT_PORT.http };

const port = (text: string | undefined) => {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 65_535 ? n : undefined;
};

/** The daemons' listening lines, SOCKS5 first (a cloud-config may install both kinds; the first found wins). */
const rules: readonly { protocol: EndpointProtocol; line: RegExp }[] = [
  { protocol: 'socks5', line: /microsocks\b[^\n]*?\s-p\s+(\d{1,5})\b/ },
  { protocol: 'socks5', line: /^\s*internal:[^\n]*\bport\s*=\s*(\d{1,5})\b/m },
  { protocol: 'http', line: /^\s*http_port\s+(?:[^\s:]+:)?(\d{1,5})\b/m },
  { protocol: 'http', line: /^\s*Port\s+(\d{1,5})\s*$/m },
];

/** The protocol and port the user-data makes its proxy listen on; undefined when it names none of the daemons'. */
export function endpointOfUserData(text: string): ProxyEndpoint | undefined {
  for (const rule of rules) {
    const p = port(rule.line.exec(text)?.[1]);
    if (p !== undefined) return { protocol: rule.protocol, port: p };
  }
  return undefined;
}
