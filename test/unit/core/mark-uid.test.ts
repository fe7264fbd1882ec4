/** Issue 26: a release rewrites only the mark's uid line (the one the parser reads); every other byte stays. */
import { describe, expect, it } from 'vitest';
import { parseMark, withMarkUid } from '../../../main/core';

const MARK = 'proxy-operator-managed=true\nproxy-operator-uid=u-1\nproxy-operator-created-at=2026-09-23T07:00:00Z';

describe('withMarkUid', () => {
  it('empties the uid and writes it back, notes and admin lines kept', () => {
    const text = `${MARK}\nowner=kim\nExit for the lab.`;
    const released = withMarkUid(text, '');
    expect(released).toBe(text.replace('proxy-operator-uid=u-1', 'proxy-operator-uid='));
    expect(parseMark(released)).toMatchObject({ managed: true, uid: '' });
    expect(withMarkUid(released, 'u-1')).toBe(text);
  });

  it('keeps a CRLF line ending and rewrites the first uid line only (the one that counts)', () => {
    const text = 'proxy-operator-managed=true\r\nproxy-operator-uid=u-1\r\nproxy-operator-uid=later';
    expect(withMarkUid(text, '')).toBe('proxy-operator-managed=true\r\nproxy-operator-uid=\r\nproxy-operator-uid=later');
  });

  it('adds the line after the managed line when it is missing', () => {
    expect(withMarkUid('proxy-operator-managed=true\nnotes', 'u-2')).toBe('proxy-operator-managed=true\nproxy-operator-uid=u-2\nnotes');
  });
});
