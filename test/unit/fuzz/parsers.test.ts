/**
 * UPIDs, boot-disk detection, disk sizes and profile validation under
 * arbitrary input: no uncaught exception of the wrong kind, and each keeps
 * its promise (a parse of a formatted value gives it back; the boot disk is
 * a disk the config has; a bad profile is one permanent ProviderError).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProviderError, parseProfile } from '../../../main/core';
import { formatUpid, parseUpid, type ParsedUpid } from '../../../main/core/pve/upid';
import { bootDisk, diskBytes, diskKeyPattern } from '../../../main/core/provider/rules/boot-disk';

const RUNS = 3000;
const token = (chars: string) => fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 16 });
const lower = 'abcdefghijklmnopqrstuvwxyz0123456789-.';

const upid: fc.Arbitrary<ParsedUpid> = fc.record({
  node: token(lower),
  pid: fc.integer({ min: 0, max: 0xffffffff }),
  pstart: fc.integer({ min: 0, max: 0xffffffff }),
  starttime: fc.integer({ min: 0, max: 0xffffffff }),
  type: token('abcdefghijklmnopqrstuvwxyz'),
  id: fc.oneof(fc.constant(''), token(lower)),
  user: fc
    .tuple(token(lower), token('abcdefghijklmnopqrstuvwxyz'), fc.option(token(lower)))
    .map(([u, r, t]) => `${u}@${r}${t ? `!${t}` : ''}`),
});

describe('UPID', () => {
  it('a parse of a formatted UPID gives it back', () => {
    fc.assert(
      fc.property(upid, (u) => {
        expect(parseUpid(formatUpid(u))).toEqual(u);
      }),
      { numRuns: RUNS },
    );
  });

  it('any string parses to a UPID that formats back to itself, or is refused with a plain Error naming it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        try {
          const parsed = parseUpid(s);
          expect(parseUpid(formatUpid(parsed))).toEqual(parsed);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect((e as Error).message).toMatch(/^not a Proxmox task id/);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

const diskKey = fc
  .tuple(fc.constantFrom('ide', 'sata', 'scsi', 'virtio', 'efidisk', 'net', 'unused'), fc.integer({ min: 0, max: 12 }))
  .map(([b, n]) => `${b}${n}`);
const diskValue = fc
  .tuple(
    fc.constantFrom('local-lvm:vm-1-disk-0', 'proxy-seeds:iso/x-seed.iso', 'none', ''),
    fc.subarray(['media=cdrom', 'size=4G', 'cache=none', 'size=3']),
  )
  .map(([v, opts]) => [v, ...opts].join(','));
const config = fc.dictionary(
  fc.oneof(diskKey, fc.constantFrom('boot', 'bootdisk', 'name')),
  fc.oneof(diskValue, fc.string({ maxLength: 40 })),
  {
    maxKeys: 10,
  },
);

describe('boot-disk detection', () => {
  it('answers a disk slot the config holds, never a CD-ROM, or undefined', () => {
    fc.assert(
      fc.property(config, fc.array(diskKey, { maxLength: 5 }), (c, order) => {
        const withOrder: Record<string, string> = { ...c, boot: `order=${order.join(';')}` };
        for (const cfg of [c, withOrder] as Record<string, string>[]) {
          const disk = bootDisk(cfg);
          if (disk === undefined) continue;
          expect(disk).toMatch(diskKeyPattern);
          expect(cfg[disk]).toBeDefined();
          expect(cfg[disk]).not.toMatch(/(^|,)media=cdrom(,|$)/);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('reads back the size it was given, and nothing from a malformed one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1 << 20 }),
        fc.constantFrom('', 'K', 'M', 'G', 'T'),
        fc.string({ maxLength: 30 }),
        (n, unit, junk) => {
          const shift = { '': 0, K: 10, M: 20, G: 30, T: 40 }[unit]!;
          expect(diskBytes(`local-lvm:vm-1-disk-0,size=${n}${unit},cache=none`)).toBe(n * 2 ** shift);
          const bytes = diskBytes(junk);
          expect(bytes === undefined || (Number.isFinite(bytes) && bytes >= 0)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('profile validation', () => {
  it('accepts or refuses with one permanent ProviderError listing field problems, never anything else', () => {
    const nearProfile = fc.record(
      {
        url: fc.oneof(fc.constant('https://pve.home.lab:8006'), fc.string({ maxLength: 20 })),
        nodes: fc.oneof(fc.constant(['pv1-1']), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 })),
        isoStorage: fc.oneof(fc.constant('proxy-seeds'), fc.jsonValue()),
        templates: fc.oneof(fc.constant({ d: { vmid: 9001 } }), fc.jsonValue()),
        machineTypes: fc.oneof(fc.constant({ small: { cores: 1, memoryMiB: 1024 } }), fc.jsonValue()),
        tls: fc.oneof(fc.constant({ mode: 'system' }), fc.jsonValue()),
        token: fc.oneof(fc.constant({ kind: 'secret', tokenId: 'u@pve!t' }), fc.jsonValue()),
        vmidRange: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(nearProfile, fc.jsonValue()), (input) => {
        try {
          parseProfile(input);
        } catch (e) {
          expect(isProviderError(e, 'permanent')).toBe(true);
          expect((e as Error).message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
