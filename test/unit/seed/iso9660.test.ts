import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIso, type IsoFile } from '../../../main/core/seed/iso9660';
import { isoIdentifiers } from '../../../main/core/seed/iso-names';
import { readIso } from './iso-reader';
import { isoinfoExtract, isoinfoPaths, missing, scratchDir, writeImage } from './debian-tools';

const now = new Date('2026-03-04T05:06:07Z');
const SECTOR = 2048;
const D_CHARACTER_IDENTIFIER = /^[A-Z0-9_]+\.[A-Z0-9_]*;1$/;

// Names a directory could hold: printable, no "/", not "." or "..", at most 100 UTF-8 bytes.
const fileName = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 24 })
  .filter((n) => !n.includes('/') && !n.includes('\0') && n !== '.' && n !== '..' && new TextEncoder().encode(n).length <= 100);

// Sizes around sector boundaries are where an off-by-one would show; their
// bytes come from a seeded generator, far cheaper than one arbitrary per byte.
function seededBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) out[i] = (x = Math.imul(x, 1103515245) + 12345) >>> 24;
  return out;
}
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.tuple(fc.constantFrom(0, SECTOR - 1, SECTOR, SECTOR + 1, 3 * SECTOR), fc.integer()).map(([n, seed]) => seededBytes(n, seed)),
);

const fileSet = fc.uniqueArray(fc.record({ name: fileName, bytes: fileBytes }), { minLength: 1, maxLength: 12, selector: (f) => f.name });

describe('isoIdentifiers', () => {
  it('maps the seed names the way genisoimage -iso-level 3 does', () => {
    expect(isoIdentifiers(['user-data', 'meta-data', 'vendor-data'])).toEqual(['USER_DATA.;1', 'META_DATA.;1', 'VENDOR_DATA.;1']);
  });
  it('keeps names apart that fold to the same d-characters', () => {
    const ids = isoIdentifiers(['a-b', 'a_b', 'A.B', 'a.b']);
    expect(new Set(ids).size).toBe(4);
  });
  it('gives valid, unique identifiers of at most 30 characters for any names (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fileName, { maxLength: 40 }), (names) => {
        const ids = isoIdentifiers(names);
        expect(new Set(ids).size).toBe(names.length);
        for (const id of ids) {
          expect(id).toMatch(D_CHARACTER_IDENTIFIER);
          expect(id.length - 3).toBeLessThanOrEqual(30); // without ".", ";1"
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildIso', () => {
  it('reads back any set of files byte for byte by their Rock Ridge names (property, in process)', () => {
    fc.assert(
      fc.property(fileSet, (files) => {
        const image = buildIso(files, { volumeId: 'cidata', now });
        const read = readIso(image);
        expect(read.label).toBe('cidata');
        expect(read.volumeSectors * SECTOR).toBe(image.length);
        expect(read.files.map((f) => f.name).sort()).toEqual(files.map((f) => f.name).sort());
        for (const f of files) expect(Buffer.compare(read.files.find((r) => r.name === f.name)!.bytes, f.bytes)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('marks the root for Rock Ridge the way Linux looks for it: SP first, then a continuation holding ER', () => {
    const image = buildIso([{ name: 'user-data', bytes: new Uint8Array(1) }], { volumeId: 'cidata', now });
    const read = readIso(image);
    expect(read.rootSignatures[0]).toBe('SP');
    expect(read.rootSignatures).toContain('CE');
    const ceSector = 21; // right after the one-sector root directory
    expect(new TextDecoder().decode(image.subarray(ceSector * SECTOR, ceSector * SECTOR + 2))).toBe('ER');
    expect(new TextDecoder().decode(image.subarray(ceSector * SECTOR + 8, ceSector * SECTOR + 18))).toBe('RRIP_1991A');
    expect(read.files[0]?.signatures).toEqual(['RR', 'NM', 'PX', 'TF']);
  });

  it('depends only on its input and timestamp', () => {
    const files: IsoFile[] = [{ name: 'a', bytes: Uint8Array.of(1, 2, 3) }];
    const one = buildIso(files, { volumeId: 'cidata', now });
    const two = buildIso(files, { volumeId: 'cidata', now: new Date(now) });
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(true);
  });

  it.each([
    {
      why: 'a duplicate name',
      files: [
        { name: 'a', bytes: new Uint8Array() },
        { name: 'a', bytes: new Uint8Array() },
      ],
      when: now,
    },
    { why: 'a name with a slash', files: [{ name: 'a/b', bytes: new Uint8Array() }], when: now },
    { why: 'a name too long for one record', files: [{ name: 'n'.repeat(101), bytes: new Uint8Array() }], when: now },
    { why: 'an invalid date', files: [{ name: 'a', bytes: new Uint8Array() }], when: new Date(Number.NaN) },
    {
      why: 'a date a directory record cannot hold',
      files: [{ name: 'a', bytes: new Uint8Array() }],
      when: new Date('2200-01-01T00:00:00Z'),
    },
  ])('refuses $why', ({ files, when }) => {
    expect(() => buildIso(files, { volumeId: 'cidata', now: when })).toThrow(RangeError);
  });
});

describe('a directory spanning several sectors', () => {
  const isoinfo = missing('isoinfo');
  const scratch = scratchDir();
  afterAll(() => scratch.remove());

  it.skipIf(isoinfo !== undefined)('is read by isoinfo with every name and file intact', () => {
    // 60 records of ~200 bytes need six sectors of directory.
    const files = Array.from({ length: 60 }, (_, i) => ({
      name: `file-${String(i).padStart(2, '0')}-${'n'.repeat(60)}`,
      bytes: new TextEncoder().encode(`file ${i}\n`),
    }));
    const path = writeImage(scratch.path, 'many.iso', buildIso(files, { volumeId: 'cidata', now }));
    expect(isoinfoPaths(path)).toEqual(files.map((f) => `/${f.name}`).sort());
    for (const f of [files[0]!, files[33]!, files[59]!])
      expect(isoinfoExtract(path, `/${f.name}`).toString()).toBe(new TextDecoder().decode(f.bytes));
  });
});
