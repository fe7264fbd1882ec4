/**
 * The acceptance proof: Debian's own readers (blkid, isoinfo, xorriso) see
 * our seed as cloud-init's NoCloud datasource needs it, and genisoimage,
 * which Proxmox uses for its own seeds, lays out the same names.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSeedIso } from '../../../main/core/seed/nocloud';
import { filesByName } from './iso-reader';
import { blkid, genisoimage, isoinfoExtract, isoinfoPaths, missing, scratchDir, writeImage, xorrisoExtract } from './debian-tools';

const now = new Date('2026-03-04T05:06:07Z');
const encode = (s: string) => new TextEncoder().encode(s);

const typical =
  '#cloud-config\npackages: [squid]\nwrite_files:\n  - path: /etc/squid/squid.conf\n    content: |\n      http_port 3128\n      http_access allow all\nruncmd:\n  - [systemctl, restart, squid]\n';
const crlfEmoji = '\uFEFF#cloud-config\r\n# caf\u00e9 \u{1F600} \u{1F680}\r\n\u0000\u0001\u007f\u00ff binary-ish\r\n';
// 3 MiB that is not one repeated byte, so a misplaced sector shows.
const big = Array.from({ length: (3 * 1024 * 1024) / 64 }, (_, i) => `# line ${String(i).padStart(10, '0')} ${'x'.repeat(44)}\n`).join('');

const cases = [
  { why: 'a typical cloud-config', userData: typical },
  { why: 'an empty user-data', userData: '' },
  { why: 'CR LF, emoji, a BOM and control bytes', userData: crlfEmoji },
  { why: 'a 3 MiB user-data', userData: big },
];

const isoinfo = missing('isoinfo');
const xorriso = missing('xorriso');
const blkidMissing = missing('blkid');
const genisoimageMissing = missing('genisoimage');

let scratch: ReturnType<typeof scratchDir>;
beforeAll(() => {
  scratch = scratchDir();
});
afterAll(() => scratch.remove());

function seedFile(file: string, userData: string, vendorData?: string): { path: string; expected: Map<string, Uint8Array> } {
  const image = buildSeedIso({ name: 'proxy-abc', userData, vendorData, installGuestAgent: true, now });
  const expected = new Map([
    ['user-data', encode(userData)],
    ['meta-data', encode('instance-id: "proxy-abc"\nlocal-hostname: "proxy-abc"\n')],
    ['vendor-data', filesByName(image).get('vendor-data')!],
  ]);
  return { path: writeImage(scratch.path, file, image), expected };
}

describe.each(cases)('a seed with $why', ({ userData }) => {
  it.skipIf(isoinfo !== undefined)('lists and extracts every file byte for byte with isoinfo -R', () => {
    const { path, expected } = seedFile(`isoinfo-${userData.length}.iso`, userData, '#cloud-config\nntp: {enabled: true}\n');
    expect(isoinfoPaths(path)).toEqual(['/meta-data', '/user-data', '/vendor-data']);
    for (const [name, bytes] of expected) expect(Buffer.compare(isoinfoExtract(path, `/${name}`), Buffer.from(bytes)), name).toBe(0);
  });

  it.skipIf(xorriso !== undefined)('restores every file byte for byte with xorriso -osirrox, without a complaint', () => {
    const { path, expected } = seedFile(`xorriso-${userData.length}.iso`, userData);
    const dir = join(scratch.path, `x-${userData.length}`);
    mkdirSync(dir);
    const { files, complaints } = xorrisoExtract(path, dir);
    expect(complaints).toEqual([]);
    expect([...files.keys()].sort()).toEqual(['meta-data', 'user-data', 'vendor-data']);
    for (const [name, bytes] of expected) expect(Buffer.compare(files.get(name)!, Buffer.from(bytes)), name).toBe(0);
  });
});

describe('the seed as the guest finds it', () => {
  it.skipIf(xorriso !== undefined || isoinfo !== undefined)('keeps an empty vendor-data as an empty file, last on the volume', () => {
    const image = buildSeedIso({ name: 'proxy-abc', userData: typical, installGuestAgent: false, now });
    const path = writeImage(scratch.path, 'agent-off.iso', image);
    expect(isoinfoExtract(path, '/vendor-data').length).toBe(0);
    const dir = join(scratch.path, 'agent-off');
    mkdirSync(dir);
    const { files, complaints } = xorrisoExtract(path, dir);
    expect(complaints).toEqual([]);
    expect(files.get('vendor-data')?.length).toBe(0);
    expect(files.get('user-data')?.toString('utf8')).toBe(typical);
  });

  it.skipIf(blkidMissing !== undefined)('is TYPE=iso9660 LABEL=cidata to blkid, which is how cloud-init finds it', () => {
    const { path } = seedFile('blkid.iso', typical);
    expect(blkid(path)).toMatchObject({ TYPE: 'iso9660', LABEL: 'cidata', BLOCK_SIZE: '2048' });
  });

  it.skipIf(isoinfo !== undefined)('round-trips any user-data through isoinfo (fast-check, 20 runs)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (userData) => {
        const { path } = seedFile('property.iso', userData);
        return Buffer.compare(isoinfoExtract(path, '/user-data'), Buffer.from(encode(userData))) === 0;
      }),
      { numRuns: 20 },
    );
  });

  it.skipIf(isoinfo !== undefined || genisoimageMissing !== undefined)(
    'shows the same names as genisoimage -iso-level 3 -R -V cidata (how Proxmox builds seeds)',
    () => {
      const { path: ours, expected } = seedFile('ours.iso', typical);
      const source = join(scratch.path, 'genisoimage-source');
      mkdirSync(source);
      for (const [name, bytes] of expected) writeFileSync(join(source, name), bytes);
      const theirs = join(scratch.path, 'genisoimage.iso');
      genisoimage(source, theirs);

      expect(isoinfoPaths(ours)).toEqual(isoinfoPaths(theirs));
      expect(isoinfoPaths(ours, false)).toEqual(isoinfoPaths(theirs, false)); // USER_DATA.;1 and so on
      expect(blkid(ours).LABEL).toBe(blkid(theirs).LABEL);
      for (const name of expected.keys()) expect(isoinfoExtract(ours, `/${name}`)).toEqual(isoinfoExtract(theirs, `/${name}`));
    },
  );
});
