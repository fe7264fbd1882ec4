/**
 * CSV as RFC 4180 says (CRLF line ends; a field holding a comma, a quote, a
 * CR or LF in double quotes, its quotes doubled), with a header row. A cell
 * a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a
 * CR: OWASP's "CSV injection") gets a leading `'`, so a VM's name or a tag
 * is shown, never evaluated. No CSV library is in package.json; this is the whole rule.
 */
import { proxyUrl } from '../../../../shared/domain/proxy-url';
import type { ExportFormatter } from './types';

/** One cell: formula-guarded, then quoted when it must be. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvFormat: ExportFormatter = {
  fileName: 'proxies.csv',
  mediaType: 'text/csv',
  render(proxies) {
    const withCredentials = proxies.some((p) => p.credentials);
    const header = [
      'name',
      'cluster',
      'node',
      'vmid',
      'protocol',
      'host',
      'port',
      'url',
      'tags',
      ...(withCredentials ? ['username', 'password'] : []),
    ];
    const rows = proxies.map((p) => [
      p.name,
      p.clusterName,
      p.node,
      p.vmid,
      p.endpoint.protocol,
      p.host,
      p.endpoint.port,
      proxyUrl(p.endpoint, p.host, p.credentials),
      p.tags.join(';'),
      ...(withCredentials ? [p.credentials?.username ?? '', p.credentials?.password ?? ''] : []),
    ]);
    const text = [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n');
    return { text: `${text}\r\n`, notes: [], withCredentials };
  },
};
