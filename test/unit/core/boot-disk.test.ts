import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../../fixtures';
import { bootDisk, diskBytes } from '../../../main/core/provider/rules/boot-disk';

const captured = fixtureJson<{ data: Record<string, string | number> }>('config_during_destroy')!.data;
const capturedConfig = Object.fromEntries(Object.entries(captured).map(([k, v]) => [k, String(v)]));

describe('bootDisk', () => {
  it.each([
    ['the captured config (order=scsi0;ide2)', capturedConfig, 'scsi0'],
    [
      'a CD-ROM first in the order is skipped',
      { boot: 'order=ide2;virtio0', ide2: 'local:iso/x.iso,media=cdrom', virtio0: 'lvm:d,size=8G' },
      'virtio0',
    ],
    ['a missing disk in the order is skipped', { boot: 'order=scsi1;net0;scsi0', scsi0: 'lvm:d,size=8G' }, 'scsi0'],
    ['the legacy bootdisk key', { bootdisk: 'sata0', sata0: 'lvm:d,size=8G', scsi0: 'lvm:e,size=4G' }, 'sata0'],
    ['the first present of scsi0, virtio0, sata0, ide0', { virtio0: 'lvm:d,size=8G', ide0: 'lvm:e,size=4G' }, 'virtio0'],
    ['an ide0 CD-ROM is not a disk', { ide0: 'local:iso/x.iso,media=cdrom' }, undefined],
    ['no disk at all', { boot: 'order=net0' }, undefined],
  ] as const)('%s', (_name, config, want) => {
    expect(bootDisk(config as Record<string, string>)).toBe(want);
  });
});

describe('diskBytes', () => {
  it.each([
    ['local-lvm:vm-1-disk-1,size=4G', 4 * 2 ** 30],
    ['local-lvm:vm-1-disk-1,size=3584M', 3584 * 2 ** 20],
    ['d,size=1.5T', 1.5 * 2 ** 40],
    ['d,size=44K', 44 * 1024],
    ['d,size=1024', 1024],
    ['d,cache=none', undefined],
    ['d,size=big', undefined],
  ] as const)('%s', (value, want) => {
    expect(diskBytes(value)).toBe(want);
  });
});
