/**
 * Issue 23: a proxy's Notes are the part of its description below the marks;
 * the marks (the app's and the operator's key=value lines, spec entry 8) stay
 * byte-for-byte as they were. Tags follow Proxmox's pve-tag rule.
 */
import { describe, expect, it } from 'vitest';
import { MARK_CREATED_AT_KEY, MARK_MANAGED_KEY, MARK_UID_KEY } from '../../../main/core/provider/rules/mark';
import { MARK_PREFIX } from '../../../shared/domain/vm-notes';
import { describeNotes, joinNotes, notesProblem, splitNotes, tagProblem, userTags } from '../../../main/core/provider/rules/notes';

const marks = 'proxy-operator-managed=true\nproxy-operator-uid=u-1\nproxy-operator-created-at=2026-09-23T07:00:00Z';

describe('notes below the marks', () => {
  it('a description of marks alone has empty notes, and writing notes keeps the marks byte for byte', () => {
    expect(splitNotes(marks)).toEqual({ marks, notes: '' });
    const written = joinNotes(marks, 'Exit for the lab VLAN.\nAsk Kim first.');
    expect(written.startsWith(`${marks}\n`)).toBe(true);
    expect(splitNotes(written)).toEqual({ marks, notes: 'Exit for the lab VLAN.\nAsk Kim first.' });
  });

  it('CRLF marks and an admin line above them stay as they were; only what is below the last mark is notes', () => {
    const crlf = `admin line\r\n${marks.replaceAll('\n', '\r\n')}\r\nold notes`;
    const { marks: kept, notes } = splitNotes(crlf);
    expect(kept).toBe(`admin line\r\n${marks.replaceAll('\n', '\r\n')}\r`);
    expect(notes).toBe('old notes');
    expect(joinNotes(kept, 'new').startsWith(kept)).toBe(true);
  });

  it('emptied notes leave the marks alone (Proxmox strips the trailing whitespace it reads back)', () => {
    expect(joinNotes(marks, '')).toBe(marks);
    expect(joinNotes(marks, 'note\n\n  ')).toBe(`${marks}\nnote`);
  });

  it('a VM without marks: the whole description is its notes', () => {
    expect(splitNotes('just text')).toEqual({ marks: '', notes: 'just text' });
    expect(splitNotes(undefined)).toEqual({ marks: '', notes: '' });
  });

  it('refuses notes that would read as a mark, and a description over Proxmox\'s 8192 characters', () => {
    expect(notesProblem(marks, 'proxy-operator-uid=other')).toContain('proxy-operator-');
    expect(notesProblem(marks, 'x'.repeat(8192))).toContain('8192');
    expect(notesProblem(marks, 'fine')).toBeUndefined();
  });

  it('the shared prefix is the family of every mark key', () => {
    for (const key of [MARK_MANAGED_KEY, MARK_UID_KEY, MARK_CREATED_AT_KEY]) expect(key.startsWith(MARK_PREFIX)).toBe(true);
  });

  it('describes what a write changes', () => {
    expect(describeNotes('a', 'a')).toBe('unchanged');
    expect(describeNotes('', 'a')).toBe('changed');
  });
});

describe('tags (pve-common JSONSchema.pm $PVE_TAG_RE)', () => {
  it('takes what Proxmox takes and says why not otherwise', () => {
    for (const ok of ['lab', 'eu-west', 'v1.2', 'a+b', '_x', 'Exit']) expect(tagProblem(ok)).toBeUndefined();
    for (const bad of ['-lead', 'has space', 'bang!', '', 'ümlaut']) expect(tagProblem(bad)).toBeDefined();
  });

  it("the operator's tag is kept apart: it is not the user's to remove", () => {
    expect(userTags('lab;proxy_operator;eu')).toEqual(['lab', 'eu']);
  });
});
