/**
 * The net0 rewrite of spec entry 7: the value's comma-separated options keep
 * their order, model and MAC untouched; `bridge=` and `tag=` are replaced in
 * place or appended. net0 is a Proxmox property string, so a bridge that is
 * not a plain interface name (a `,`, `=`, `;` or a newline would add options
 * of the caller's choosing) or a tag outside 1..4094 is refused here too,
 * whatever schema it passed before.
 */
import { createHash } from 'node:crypto';
import { permanent } from './errors';
import { hasStaticAddress, type ProxyNetwork } from '../../../../shared/domain/proxy-network';

/**
 * A Linux bridge (or SDN vnet) name as Proxmox's `pve-bridge-id` takes it,
 * within Linux's 15-character interface names: a letter, then letters,
 * digits, `_`, `.` or `-`.
 */
export const BRIDGE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,14}$/;
export const BRIDGE_NAME_MESSAGE = 'must be a Linux bridge name like vmbr0: a letter, then up to 14 letters, digits, "_", "." or "-"';

export const MIN_VLAN_TAG = 1;
export const MAX_VLAN_TAG = 4094;

export function checkBridge(bridge: string): void {
  if (!BRIDGE_NAME.test(bridge)) throw permanent(`the bridge ${JSON.stringify(bridge)} ${BRIDGE_NAME_MESSAGE}`);
}

export function checkVlanTag(tag: number): void {
  if (!Number.isInteger(tag) || tag < MIN_VLAN_TAG || tag > MAX_VLAN_TAG) {
    throw permanent(`the VLAN tag ${tag} must be a whole number from ${MIN_VLAN_TAG} to ${MAX_VLAN_TAG}`);
  }
}

/**
 * Issue 24: the MAC a proxy with a static address gets, so its seed's network-config can name the NIC before the
 * clone exists (the seed goes up beside the clone; clone_vm renews the MAC only afterwards). Proxmox's own prefix for
 * the MACs it makes, BC:24:11 (pve-common PVE/Tools.pm random_ether_addr, 8.1 on), then 3 bytes of the proxy's UID's
 * SHA-256: the same UID always gets the same MAC, so a rerun and a rebuilt seed agree.
 */
export function proxyMac(uid: string): string {
  const hash = createHash('sha256').update(uid).digest();
  return ['BC', '24', '11', ...[...hash.subarray(0, 3)].map((b) => b.toString(16).toUpperCase().padStart(2, '0'))].join(':');
}

/** The MAC a create writes into net0: its own for a static address (the seed names the NIC by it), else none. */
export function staticMacOf(uid: string, network: ProxyNetwork | undefined): string | undefined {
  return hasStaticAddress(network) ? proxyMac(uid) : undefined;
}

const MAC = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;

/** The MAC in net0's `model=MAC` option (`virtio=BC:24:11:…`), or undefined. */
export function net0Mac(net0: string | undefined): string | undefined {
  const first = (net0 ?? '').split(',')[0] ?? '';
  const mac = first.split('=')[1];
  return mac !== undefined && MAC.test(mac) ? mac : undefined;
}

/** `vlanTag` null takes the tag off (a proxy moved off its VLAN, issue 24); undefined or 0 leaves net0's own. */
export function rewriteNet0(net0: string, bridge: string | undefined, vlanTag: number | null | undefined, mac?: string): string {
  if (mac !== undefined && !MAC.test(mac)) throw permanent(`the MAC ${JSON.stringify(mac)} is not six hex pairs`);
  const wanted = new Map<string, string>();
  if (bridge !== undefined && bridge !== '') {
    checkBridge(bridge);
    wanted.set('bridge', bridge);
  }
  if (vlanTag !== undefined && vlanTag !== null && vlanTag !== 0) {
    checkVlanTag(vlanTag);
    wanted.set('tag', String(vlanTag));
  }
  const untag = vlanTag === null;
  const kept = untag ? net0.split(',').filter((option) => !option.startsWith('tag=')) : net0.split(',');
  // A MAC given replaces the model option's (`virtio=<MAC>`); the model stays.
  const withMac =
    mac === undefined ? kept : kept.map((option, i) => (i === 0 && net0Mac(option) ? `${option.split('=')[0]}=${mac}` : option));
  const options = withMac.map((option) => {
    const key = option.split('=', 1)[0] ?? '';
    const value = wanted.get(key);
    if (value === undefined) return option;
    wanted.delete(key);
    return `${key}=${value}`;
  });
  for (const key of ['bridge', 'tag']) {
    const value = wanted.get(key);
    if (value !== undefined) options.push(`${key}=${value}`);
  }
  return options.join(',');
}
