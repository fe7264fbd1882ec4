/**
 * The plain list: one proxy a line, `host:port`, or `host:port:user:pass`
 * with credentials (the form proxy tools and FoxyProxy's "Import proxy
 * list" read: foxyproxy/browser-extension src/content/import-list.js
 * parseSimple splits a line at `:`). IPv6 hosts are bracketed. A username or
 * password holding `:` or a space cannot be written in this form: that
 * proxy's line goes without them, and a note says so.
 */
import { hostPort } from '../../../../shared/domain/proxy-url';
import type { ExportFormatter } from './types';

const unsplittable = /[:\s]/;

export const listFormat: ExportFormatter = {
  fileName: 'proxies.txt',
  mediaType: 'text/plain',
  render(proxies) {
    const notes: string[] = [];
    let withCredentials = false;
    const lines = proxies.map((p) => {
      const at = hostPort(p.host, p.endpoint.port);
      const c = p.credentials;
      if (!c) return at;
      if (unsplittable.test(c.username) || unsplittable.test(c.password)) {
        notes.push(`${p.name}: its username or password holds ":" or a space, which this list cannot carry; its line has none.`);
        return at;
      }
      withCredentials = true;
      return `${at}:${c.username}:${c.password}`;
    });
    if (proxies.some((p) => p.endpoint.protocol === 'socks5'))
      notes.push('A plain list does not say which proxies speak SOCKS5: tell the client, or use JSON or CSV, which do.');
    return { text: lines.length ? `${lines.join('\n')}\n` : '', notes, withCredentials };
  },
};
