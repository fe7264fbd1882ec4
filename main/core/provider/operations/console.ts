/**
 * Console (issue 16): the Proxmox web UI's console page for one VM, opened in
 * the system browser. It runs on the user's own Proxmox login (the browser's
 * session), never on the app's token: the token needs nothing for it, the
 * user needs VM.Console on /vms/<vmid> (qemu-server API2/Qemu.pm vncproxy and
 * termproxy: `check => ['perm', '/vms/{vmid}', ['VM.Console']]`).
 *
 * The URL is the one the web UI itself opens (proxmox/pve-manager@14a22df3
 * www/manager6/Utils.js openVNCViewer: `?console=kvm&novnc=1&vmid=…&vmname=…
 * &node=…&resize=off&cmd=`, Ext.Object.toQueryString in that key order;
 * proxmox-widget-toolkit Utils.js openXtermJsViewer: the same with
 * `xtermjs=1` and no `resize`). pveproxy answers `/?console=…&novnc=1` with
 * the noVNC page and `…&xtermjs=1` with xterm.js (PVE/Service/pveproxy.pm
 * get_index). The UI offers xterm.js for a VM only when its config has a
 * serial port (Utils.js openTreeConsole: `xtermjs: !!conf.serial`), since it
 * attaches to serial0.
 */
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { notFound, permanent } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { notTheOne } from '../cluster/ownership';
import { resolveVm } from '../cluster/resources';
import { goneError, readConfigOrGone } from '../cluster/vm-lookup';

export type ConsoleViewer = 'novnc' | 'xtermjs';

export interface ConsoleTarget {
  /** The profile's URL: `https://host:port` (the web UI and the API share it). */
  url: string;
  node: string;
  vmid: number;
  /** The VM's name, shown as the page title. */
  name: string;
  /** Default `novnc`; `xtermjs` only for a VM with a serial port (see `consoleViewers`). */
  viewer?: ConsoleViewer;
}

export interface ConsoleLink {
  viewer: ConsoleViewer;
  /** The exact URL to open (and to show, copyable). */
  url: string;
  /** What the user's Proxmox login needs for it. */
  needs: string;
}

/** ext-all's Ext.Object.toQueryString: `encodeURIComponent` on keys and values, `undefined` as an empty value. */
function query(pairs: [string, string | number | undefined][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v === undefined ? '' : encodeURIComponent(String(v))}`).join('&');
}

/** The console URL for a VM. Pure: nothing is sent. A URL that is not https://host[:port] is refused. */
export function consoleUrl(target: ConsoleTarget): ConsoleLink {
  let base: URL;
  try {
    base = new URL(target.url);
  } catch {
    throw permanent(`the profile's URL ${JSON.stringify(target.url)} is not a URL`, 'Fix the URL in the cluster profile.');
  }
  if (base.protocol !== 'https:') throw permanent(`the profile's URL ${target.url} is not https`, 'Fix the URL in the cluster profile.');
  const viewer = target.viewer ?? 'novnc';
  const common: [string, string | number | undefined][] = [
    ['console', 'kvm'],
    [viewer, 1],
    ['vmid', target.vmid],
    ['vmname', target.name],
    ['node', target.node],
  ];
  const pairs: [string, string | number | undefined][] =
    viewer === 'novnc' ? [...common, ['resize', 'off'], ['cmd', undefined]] : [...common, ['cmd', undefined]];
  return { viewer, url: `${base.origin}/?${query(pairs)}`, needs: `VM.Console on /vms/${target.vmid} (your Proxmox login)` };
}

/** Which viewers the web UI offers for a VM's config: noVNC always, xterm.js with a serial port (`serial0`..`serial3`). */
export function consoleViewers(config: Readonly<Record<string, string>>): ConsoleViewer[] {
  return Object.keys(config).some((k) => /^serial[0-3]$/.test(k)) ? ['novnc', 'xtermjs'] : ['novnc'];
}

export interface VmConsole {
  node: string;
  vmid: number;
  /** noVNC first; xterm.js too when the VM has a serial port. */
  links: ConsoleLink[];
}

/**
 * The console links for a proxy, read now: its node (it may have moved) and whether it has a serial port. Reads
 * only; a VM that is not the one meant (name or mark) is not-found here, as get does. Any VM with the name may be
 * opened: the console changes nothing through the app, and Proxmox checks the user's own VM.Console.
 */
export async function consoleOf(ctx: CoreContext, id: string, options: CallOptions = {}): Promise<VmConsole> {
  try {
    const { vmid, name } = parseProviderId(id);
    const r = await resolveVm(ctx, vmid, options);
    if (!r?.node) throw goneError(vmid);
    const config = await readConfigOrGone(ctx, r.node, vmid, options.signal);
    if (config.name !== name) throw notFound(notTheOne(vmid, config, { name }) ?? `VM ${vmid} is not ${name}`);
    const links = consoleViewers(config).map((viewer) => consoleUrl({ url: ctx.profile.url, node: r.node!, vmid, name, viewer }));
    return { node: r.node, vmid, links };
  } catch (e) {
    throw toProviderError('console', e, id);
  }
}
