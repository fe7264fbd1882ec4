/**
 * A proxy's Notes and tags (issue 23). The Notes are what the Proxmox UI shows
 * as the VM's notes (`description`), below the marks: everything up to and
 * including the last mark line (spec entry 8's `proxy-operator-*` lines, the
 * app's and the operator's alike, and anything an admin wrote above them) is
 * kept byte for byte, and only what follows is the user's to edit.
 *
 * Proxmox's side: qemu-server writes the description as `#` comment lines and
 * reads it back with trailing whitespace removed (QemuServer.pm parse_vm_config
 * `$descr =~ s/\s+$//`); the API takes at most 8192 characters (apidata.js,
 * PUT …/config `description.maxLength`). A tag is pve-common's
 * `$PVE_TAG_RE = qr/[a-z0-9_][a-z0-9_\-\+\.]*\/i` (JSONSchema.pm), a list is
 * split on `,`, `;` and spaces (ParseUtils.pm split_list), and qemu-server
 * stores it sorted, folded to lower case and without repeats, joined by `;`
 * (pve-guest-common GuestHelpers.pm get_unique_tags, F9).
 */
import { isMarkLine, MARK_LINE_IN_NOTES, MAX_DESCRIPTION } from '../../../../shared/domain/vm-notes';
import { PROXY_TAG, splitTags } from './tags';

export { MAX_DESCRIPTION, tagProblem } from '../../../../shared/domain/vm-notes';

export interface SplitNotes {
  /** The description up to the end of its last mark line, exactly as it was ('' without marks). */
  marks: string;
  /** What follows the marks: the user's notes. */
  notes: string;
}

export function splitNotes(description: string | undefined): SplitNotes {
  const text = description ?? '';
  const lines = text.split('\n');
  let last = -1;
  lines.forEach((line, i) => {
    if (isMarkLine(line)) last = i;
  });
  if (last < 0) return { marks: '', notes: text };
  return { marks: lines.slice(0, last + 1).join('\n'), notes: lines.slice(last + 1).join('\n') };
}

/** The description to write: the marks as they were, then the notes (trailing whitespace dropped, as Proxmox does). */
export function joinNotes(marks: string, notes: string): string {
  const body = notes.replace(/\s+$/, '');
  if (!marks) return body;
  return body ? `${marks}\n${body}` : marks;
}

/** Why these notes cannot be written below these marks, or undefined. */
export function notesProblem(marks: string, notes: string): string | undefined {
  if (notes.split('\n').some(isMarkLine)) return MARK_LINE_IN_NOTES;
  const length = joinNotes(marks, notes).length;
  if (length > MAX_DESCRIPTION)
    return `The notes and the marks come to ${length} characters; Proxmox keeps at most ${MAX_DESCRIPTION} in a VM's notes`;
  return undefined;
}

export function describeNotes(before: string, after: string): 'changed' | 'unchanged' {
  return before.replace(/\s+$/, '') === after.replace(/\s+$/, '') ? 'unchanged' : 'changed';
}

/** The tags a user edits: every tag but the operator's (`proxy_operator`), which lists the VM as a proxy and stays. */
export function userTags(tags: string | undefined): string[] {
  return splitTags(tags).filter((t) => t.toLowerCase() !== PROXY_TAG);
}

/** The `tags` value to write: the system tag when the VM had it, then the user's. */
export function tagsValue(before: string | undefined, wanted: readonly string[]): string {
  const keep = splitTags(before).filter((t) => t.toLowerCase() === PROXY_TAG);
  return [...new Set([...keep, ...wanted.map((t) => t.toLowerCase())])].join(';');
}
