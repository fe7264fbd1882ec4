/** JSON: every fact of each proxy a script needs, its URL included; JSON.stringify escapes every value. */
import { proxyUrl } from '../../../../shared/domain/proxy-url';
import type { ExportFormatter } from './types';

export const jsonFormat: ExportFormatter = {
  fileName: 'proxies.json',
  mediaType: 'application/json',
  render(proxies) {
    const rows = proxies.map((p) => ({
      name: p.name,
      cluster: p.clusterName,
      node: p.node,
      vmid: p.vmid,
      protocol: p.endpoint.protocol,
      host: p.host,
      port: p.endpoint.port,
      url: proxyUrl(p.endpoint, p.host, p.credentials),
      tags: [...p.tags],
      ...(p.credentials ? { username: p.credentials.username, password: p.credentials.password } : {}),
    }));
    return {
      text: `${JSON.stringify({ proxies: rows }, null, 2)}\n`,
      notes: [],
      withCredentials: proxies.some((p) => p.credentials),
    };
  },
};
