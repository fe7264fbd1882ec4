/**
 * What every export format is written from: the proxies, resolved by the
 * export service (main/services/exports/service.ts) to a host, endpoint and,
 * when asked, credentials; and the options. A format is a pure function of
 * these: no read, no clock, the same text for the same input.
 */
import type { ExportOptions } from '../../../../shared/channels/exports';
import type { ProxyEndpoint } from '../../../../shared/domain/proxy-endpoint';
import type { ProxyCredentials } from '../../../ports/proxy-credentials';

export interface ExportProxy {
  name: string;
  clusterName: string;
  node: string;
  vmid: number;
  /** An IP address (the service checks it is one): IPv4, or IPv6 unbracketed. */
  host: string;
  endpoint: ProxyEndpoint;
  tags: readonly string[];
  /** Only when the export asked for credentials and the proxy has them. */
  credentials?: ProxyCredentials;
}

export interface Rendered {
  text: string;
  /** What the reader should know about this text, in words. */
  notes: string[];
  /** True when a password is in the text. */
  withCredentials: boolean;
}

export interface ExportFormatter {
  fileName: string;
  mediaType: string;
  render(proxies: readonly ExportProxy[], options: ExportOptions): Rendered;
}

/**
 * A VM's name as a comment line may show it: a name is the VM's (a foreign one's too), so anything but a
 * plain character becomes `?` and no newline or quote can end the comment and start a line of config or code.
 */
export const commentSafe = (text: string) => text.replace(/[^A-Za-z0-9 .,_@:()+-]/g, '?').slice(0, 120);

/** Who a proxy is, for a comment: `web-1 (lab, VM 101)`. */
export const whoIs = (p: ExportProxy) => commentSafe(`${p.name} (${p.clusterName}, VM ${p.vmid})`);
