/**
 * The rules a proxy's Notes and tags follow (issue 23), shared so the drawer
 * says a problem as it is typed and main refuses the same before it sends
 * anything (main/core/provider/rules/notes.ts cites Proxmox's source for each).
 */

/** Proxmox's ceiling on a VM's `description` (apidata.js, PUT …/qemu/{vmid}/config). */
export const MAX_DESCRIPTION = 8192;

/** pve-common JSONSchema.pm `$PVE_TAG_RE = qr/[a-z0-9_][a-z0-9_\-\+\.]*\/i`. */
const TAG = /^[a-z0-9_][a-z0-9_\-+.]*$/i;

/** Why Proxmox would refuse this tag, or undefined. */
export function tagProblem(tag: string): string | undefined {
  if (tag.length === 0) return 'A tag cannot be empty';
  if (!TAG.test(tag))
    return `"${tag}" is not a Proxmox tag: a letter, digit or "_" first, then also "-", "+" or "."; no spaces or other characters`;
  return undefined;
}

/** A tag list as typed: split where Proxmox splits it (`,`, `;`, spaces; pve-common ParseUtils.pm split_list). */
export function typedTags(text: string): string[] {
  return text.split(/[,;\s]+/).filter((t) => t.length > 0);
}

/** The prefix every mark key has (`proxy-operator-managed`, `-uid`, `-created-at`; spec entry 8). */
export const MARK_PREFIX = 'proxy-operator-';

/** A line that reads as a mark (`proxy-operator-…=…`): never part of the notes. */
export function isMarkLine(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(MARK_PREFIX) && trimmed.includes('=');
}

export const MARK_LINE_IN_NOTES =
  'A line of the notes starts with "proxy-operator-": such lines are the marks Egress Desk and the operator read, so notes cannot hold one';
