/**
 * FoxyProxy's Import/Export file (FoxyProxy 8, foxyproxy/browser-extension
 * at c32cd9f): the whole preferences object its Options > Import reads and
 * assigns (src/content/options.js, `FS.import(e).then(data => Object.assign(pref, data))`),
 * shaped as src/content/schema.json says: `mode`, `data` (required), one
 * item per proxy with the fields of the proxy template in
 * src/content/import-list.js (`active`, `title`, `type`, `hostname`, `port` as a string,
 * `username`, `password`, `cc`, `city`, `color`, `pac`, `pacString`,
 * `proxyDNS`, `include`, `exclude`, `tabProxy`), and the other keys of the
 * defaults in src/content/app.js. `mode` is "disable": importing changes no
 * browser setting until the user picks a proxy or "Proxy by Patterns". The
 * routing's host patterns become each proxy's `wildcard` include patterns.
 */
import { hostForPort } from '../../../../shared/domain/proxy-url';
import type { ExportFormatter } from './types';

/** FoxyProxy's own palette style: one color per proxy, in turn. */
const colors = ['#66cc66', '#6699cc', '#cc9966', '#cc66cc', '#66cccc', '#cccc66'];

export const foxyProxyFormat: ExportFormatter = {
  fileName: 'foxyproxy.json',
  mediaType: 'application/json',
  render(proxies, options) {
    const include = options.routing.hosts.map((pattern) => ({ type: 'wildcard', title: pattern, pattern, active: true }));
    const data = proxies.map((p, i) => ({
      active: true,
      title: p.name,
      type: p.endpoint.protocol,
      hostname: hostForPort(p.host),
      port: String(p.endpoint.port),
      username: p.credentials?.username ?? '',
      password: p.credentials?.password ?? '',
      cc: '',
      city: '',
      color: colors[i % colors.length]!,
      pac: '',
      pacString: '',
      proxyDNS: true,
      include,
      exclude: [],
      tabProxy: [],
    }));
    const pref = { mode: 'disable', sync: false, autoBackup: false, passthrough: '', theme: '', container: {}, commands: {}, data };
    const notes = [
      'Import it in FoxyProxy: Options › Import › Import/Export, then choose a proxy or “Proxy by Patterns” in its menu. It replaces FoxyProxy’s proxy list.',
    ];
    return { text: `${JSON.stringify(pref, null, 2)}\n`, notes, withCredentials: proxies.some((p) => p.credentials) };
  },
};
