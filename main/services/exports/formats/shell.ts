/**
 * Shell lines to source (`. ./proxy-env.sh`): HTTP_PROXY, HTTPS_PROXY,
 * ALL_PROXY and NO_PROXY, each also in lower case (curl reads `http_proxy`
 * only in lower case; most other tools read either). The variables name one
 * proxy, the first: a note says so when there are more. Every value is
 * single-quoted for POSIX sh (a `'` written as `'\''`), so no password or
 * name can end the quote and run a command; names only in comments.
 */
import { proxyUrl } from '../../../../shared/domain/proxy-url';
import type { ExportFormatter } from './types';
import { whoIs } from './types';

/** A POSIX shell word holding exactly `text`. */
export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Where no proxy is used: loopback. */
const NO_PROXY = 'localhost,127.0.0.1,::1';

export const shellFormat: ExportFormatter = {
  fileName: 'proxy-env.sh',
  mediaType: 'text/x-shellscript',
  render(proxies) {
    const [first, ...others] = proxies;
    if (!first) return { text: '', notes: [], withCredentials: false };
    const url = proxyUrl(first.endpoint, first.host, first.credentials);
    const vars: [string, string][] = [
      ['HTTP_PROXY', url],
      ['HTTPS_PROXY', url],
      ['ALL_PROXY', url],
      ['NO_PROXY', NO_PROXY],
    ];
    const lines = [
      `# Egress Desk: ${whoIs(first)}. Source it: . ./proxy-env.sh`,
      ...vars.flatMap(([name, value]) => [`export ${name}=${shellQuote(value)}`, `export ${name.toLowerCase()}=${shellQuote(value)}`]),
      ...others.map((p) => `# Also exported, not used here: ${whoIs(p)} ${proxyUrl(p.endpoint, p.host)}`),
      '',
    ];
    const notes = others.length ? [`Shell variables name one proxy: ${first.name}, the first of ${proxies.length}.`] : [];
    return { text: lines.join('\n'), notes, withCredentials: first.credentials !== undefined };
  },
};
