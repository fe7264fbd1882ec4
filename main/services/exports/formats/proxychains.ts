/**
 * proxychains-ng's config (`proxychains4 -f proxychains.conf curl …`), in
 * the words of Debian's /etc/proxychains4.conf (proxychains4 4.16): the chain
 * (`round_robin_chain` with `chain_len = 1`: each connection through the next
 * proxy; or `strict_chain`: every connection through all, in order),
 * `proxy_dns` (names resolved at the proxy), the timeouts, and under
 * `[ProxyList]` one `type host port [user pass]` line per proxy. proxychains
 * splits a line at white space and reads `#` as a comment, so a username or
 * password with either cannot be written: that line goes without them, with
 * a note. Names appear only in comments, through commentSafe.
 */
import type { ExportFormatter } from './types';
import { whoIs } from './types';

const unwritable = /[\s#]/;

export const proxychainsFormat: ExportFormatter = {
  fileName: 'proxychains.conf',
  mediaType: 'text/plain',
  render(proxies, options) {
    const notes: string[] = [];
    let withCredentials = false;
    const chain =
      options.chain === 'strict'
        ? ['# Every connection goes through all the proxies below, in order.', 'strict_chain']
        : ['# Each connection goes through one proxy, the next one in turn.', 'round_robin_chain', 'chain_len = 1'];
    if (options.chain === 'strict' && proxies.length > 1)
      notes.push(
        `strict_chain sends every connection through all ${proxies.length} proxies, one after the other: each must reach the next.`,
      );
    const entries = proxies.flatMap((p) => {
      const c = p.credentials;
      let auth = '';
      if (c && (unwritable.test(c.username) || unwritable.test(c.password)))
        notes.push(`${p.name}: its username or password holds a space or "#", which proxychains cannot read; its line has none.`);
      else if (c) {
        auth = ` ${c.username} ${c.password}`;
        withCredentials = true;
      }
      return [`# ${whoIs(p)}`, `${p.endpoint.protocol} ${p.host} ${p.endpoint.port}${auth}`];
    });
    const lines = [
      '# proxychains.conf written by Egress Desk. Run: proxychains4 -f proxychains.conf curl https://example.com',
      ...chain,
      '# Names are resolved at the proxy, not here.',
      'proxy_dns',
      'remote_dns_subnet 224',
      'tcp_read_time_out 15000',
      'tcp_connect_time_out 8000',
      '',
      '[ProxyList]',
      ...entries,
      '',
    ];
    return { text: lines.join('\n'), notes, withCredentials };
  },
};
