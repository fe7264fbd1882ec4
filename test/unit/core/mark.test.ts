import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixtureJson } from '../../../fixtures';
import { formatMark, parseMark } from '../../../main/core/provider/rules/mark';

const capturedDescription = fixtureJson<{ data: { description: string } }>('config_during_destroy')!.data.description;

describe('mark', () => {
  it('writes the operator three lines', () => {
    expect(formatMark('uid-1', new Date('2026-09-23T07:00:00.123Z'))).toBe(
      'proxy-operator-managed=true\nproxy-operator-uid=uid-1\nproxy-operator-created-at=2026-09-23T07:00:00Z',
    );
  });

  it('reads the captured description of a real proxy VM', () => {
    expect(parseMark(capturedDescription)).toEqual({
      managed: true,
      uid: '00000000-0000-0000-0000-00000000recon',
      createdAt: new Date('2026-09-23T07:00:00Z'),
    });
  });

  it('tolerates CRLF, blank lines and lines an admin added', () => {
    const text = `owner: ops team\r\n\r\n${capturedDescription.split('\n').join('\r\n')}\r\nnote=do not touch\r\n`;
    expect(parseMark(text)).toEqual(parseMark(capturedDescription));
  });

  it('keeps the first of repeated keys', () => {
    const m = parseMark('proxy-operator-managed=true\nproxy-operator-uid=first\nproxy-operator-uid=second\nproxy-operator-managed=false');
    expect(m).toMatchObject({ managed: true, uid: 'first' });
  });

  it.each(['TRUE', 'True', 'yes', '1', 'true ish', ''])('is not managed when the value is %j', (value) => {
    expect(parseMark(`proxy-operator-managed=${value}\nproxy-operator-uid=u`).managed).toBe(false);
  });

  it('gives an empty UID and no time when those lines are missing or bad', () => {
    expect(parseMark('proxy-operator-managed=true\nproxy-operator-created-at=yesterday')).toEqual({
      managed: true,
      uid: '',
      createdAt: undefined,
    });
    expect(parseMark(undefined)).toEqual({ managed: false, uid: '', createdAt: undefined });
  });

  it('reads back whatever it writes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{0,40}$/), fc.integer({ min: 0, max: 4_000_000_000 }), (uid, seconds) => {
        const at = new Date(seconds * 1000);
        expect(parseMark(formatMark(uid, at))).toEqual({ managed: true, uid, createdAt: at });
      }),
    );
  });
});
