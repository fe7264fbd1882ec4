/**
 * How a create names its proxies, shared by main (which makes them) and the
 * Create form (which shows and checks them before anything is sent). Pure:
 * no randomness, no Node, no DOM.
 */

/** The longest proxy name: a DNS label (it becomes the guest's host name), which Proxmox VM names also allow. */
export const PROXY_NAME_MAX = 63;

/** The names of a create of `count` proxies given `name`: `name` alone for one, else `name-1` … `name-N`. */
export function bulkProxyNames(count: number, name: string): string[] {
  return count === 1 ? [name] : Array.from({ length: count }, (_, i) => `${name}-${i + 1}`);
}

/** The longest prefix whose every name in a create of `count` stays within `PROXY_NAME_MAX`. */
export function longestPrefixFor(count: number): number {
  return count === 1 ? PROXY_NAME_MAX : PROXY_NAME_MAX - `-${count}`.length;
}
