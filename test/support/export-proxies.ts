/** Proxies as the export service hands them to a format (main/services/exports/formats/types.ts), for the exports' tests. */
import type { ExportOptions } from '../../shared/channels/exports';
import { defaultExportOptions } from '../../shared/channels/exports';
import type { ExportProxy } from '../../main/services/exports/formats';

/** A VM name nobody should be able to run: it ends every quote and comment the formats use. */
export const HOSTILE_NAME = `evil"; alert(1); //'$(touch /tmp/pwned)\n*/ =HYPERLINK("x")\u2028`;

export const httpProxy = (over: Partial<ExportProxy> = {}): ExportProxy => ({
  name: 'web-1',
  clusterName: 'lab',
  node: 'pve1',
  vmid: 101,
  host: '10.0.0.5',
  endpoint: { protocol: 'http', port: 3128 },
  tags: ['egress'],
  ...over,
});

export const socksProxy = (over: Partial<ExportProxy> = {}): ExportProxy => ({
  name: 'socks-1',
  clusterName: 'lab',
  node: 'pve2',
  vmid: 102,
  host: 'fd00::6',
  endpoint: { protocol: 'socks5', port: 1080 },
  tags: ['egress', 'eu'],
  ...over,
});

export const exportOptions = (over: Partial<ExportOptions> = {}): ExportOptions => ({ ...defaultExportOptions, ...over });
