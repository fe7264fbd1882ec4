/**
 * A proxy auto-config file: `FindProxyForURL(url, host)` (Netscape's PAC
 * format, as Chromium, Firefox, the desktops' proxy settings and pacparser
 * read it) sends the hosts that match the user's patterns through the
 * proxies in their order, `PROXY a:3128; SOCKS5 b:1080`, then the fallback
 * (`DIRECT`, or none: fail rather than leave outside a proxy); local names
 * and loopback stay direct, and with no pattern every other host goes
 * through. Written in ES3 (`var`, no arrow functions) for the older engines
 * (pacparser's SpiderMonkey). Every value is a JSON string literal with
 * U+2028/U+2029 escaped too, and names appear only in comments through
 * commentSafe, so nothing a VM is called can end a string or a comment.
 * A PAC file cannot carry credentials: the browser asks for them.
 */
import { hostPort } from '../../../../shared/domain/proxy-url';
import type { RoutingOptions } from '../../../../shared/channels/exports';
import { whoIs, type ExportFormatter, type ExportProxy } from './types';

/** A JavaScript string literal of any text: JSON's, plus the two line separators JSON leaves raw. */
export const jsString = (text: string) =>
  JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The proxies' PAC answer: `PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080; DIRECT`. */
export function pacAnswer(proxies: readonly ExportProxy[], fallback: RoutingOptions['fallback']): string {
  const steps = proxies.map((p) => `${p.endpoint.protocol === 'socks5' ? 'SOCKS5' : 'PROXY'} ${hostPort(p.host, p.endpoint.port)}`);
  return [...steps, ...(fallback === 'direct' ? ['DIRECT'] : [])].join('; ');
}

export const pacFormat: ExportFormatter = {
  fileName: 'proxy.pac',
  mediaType: 'application/x-ns-proxy-autoconfig',
  render(proxies, options) {
    const { hosts, fallback } = options.routing;
    const notes = ['A PAC file carries no credentials: the browser asks for each proxy’s username and password.'];
    if (fallback === 'none') notes.push('No fallback: when every proxy fails, the matching hosts do not load at all.');
    const lines = [
      '// Proxy auto-config written by Egress Desk.',
      '// Proxies, in the order they are tried:',
      ...proxies.map((p, i) => `//   ${i + 1}. ${whoIs(p)}`),
      `var proxies = ${jsString(pacAnswer(proxies, fallback))};`,
      `var hosts = [${hosts.map((h) => jsString(h.toLowerCase())).join(', ')}];`,
      '',
      'function FindProxyForURL(url, host) {',
      '  host = host.toLowerCase();',
      '  if (isPlainHostName(host) || host == "localhost" || shExpMatch(host, "127.*") || host == "::1" || host == "[::1]") return "DIRECT";',
      '  if (hosts.length == 0) return proxies;',
      '  for (var i = 0; i < hosts.length; i++) {',
      '    if (shExpMatch(host, hosts[i])) return proxies;',
      '  }',
      '  return "DIRECT";',
      '}',
      '',
    ];
    return { text: lines.join('\n'), notes, withCredentials: false };
  },
};
