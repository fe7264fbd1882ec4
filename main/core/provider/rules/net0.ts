/**
 * The net0 rewrite of spec entry 7: the value's comma-separated options keep
 * their order, model and MAC untouched; `bridge=` and `tag=` are replaced in
 * place or appended. net0 is a Proxmox property string, so a bridge that is
 * not a plain interface name (a `,`, `=`, `;` or a newline would add options
 * of the caller's choosing) or a tag outside 1..4094 is refused here too,
 * whatever schema it passed before.
 */
import { permanent } from './errors';

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

/** `vlanTag` null takes the tag off (a proxy moved off its VLAN, issue 24); undefined or 0 leaves net0's own. */
export function rewriteNet0(net0: string, bridge: string | undefined, vlanTag: number | null | undefined): string {
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
  const options = kept.map((option) => {
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
