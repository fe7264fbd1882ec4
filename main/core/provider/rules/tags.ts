/**
 * Proxmox tags: listed `;`-separated, though `,` and spaces are accepted on
 * input (F9), and folded to lower case.
 */
export const PROXY_TAG = 'proxy_operator';

export function splitTags(tags: string | undefined): string[] {
  return (tags ?? '').split(/[;, ]+/).filter((t) => t.length > 0);
}

export function hasTag(tags: string | undefined, tag: string): boolean {
  return splitTags(tags).some((t) => t.toLowerCase() === tag.toLowerCase());
}
