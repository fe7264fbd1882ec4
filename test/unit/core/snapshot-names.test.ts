/**
 * Issue 25: the app's snapshot names keep Proxmox's rule (pve-common JSONSchema.pm pve-snapshot-name: pve-configid,
 * at most 40 characters) for every kind, are recognised back, and nobody else's name is taken for the app's own.
 */
import { describe, expect, it } from 'vitest';
import { ownSnapshot, SNAPSHOT_KINDS, snapshotName } from '../../../main/core';
import { diskVerdict, PVE_SNAPSHOT_NAME, PVE_SNAPSHOT_NAME_MAX, snapshotDrives } from '../../../main/core/provider/rules/snapshots';

const at = new Date('2026-12-31T23:59:58Z');

describe('snapshot names', () => {
  it.each(SNAPSHOT_KINDS)('%s: within Proxmox’s name rule and recognised back with its time', (kind) => {
    const name = snapshotName(kind, at);
    expect(name).toMatch(PVE_SNAPSHOT_NAME);
    expect(name.length).toBeLessThanOrEqual(PVE_SNAPSHOT_NAME_MAX);
    expect(ownSnapshot(name)).toEqual({ kind, takenAt: at });
  });

  it.each([
    'before-upgrade',
    'egressdesk-20261231-235958-unknown',
    'egressdesk-20261231-2359-rotate',
    'Egressdesk-20261231-235958-rotate',
    'egressdesk-20261332-235958-rotate',
  ])('%s is not the app’s', (name) => expect(ownSnapshot(name)).toBeUndefined());
});

describe('which disks can snapshot', () => {
  const types = new Map([
    ['local-lvm', 'lvmthin'],
    ['local', 'dir'],
    ['thick', 'lvm'],
    ['tank', 'zfspool'],
    ['ceph', 'rbd'],
    ['iscsi', 'iscsi'],
  ]);
  it.each([
    ['local-lvm:vm-1-disk-0', true],
    ['tank:vm-1-disk-0', true],
    ['ceph:vm-1-disk-0', true],
    ['local:1/vm-1-disk-0.qcow2', true],
    ['local:1/vm-1-disk-0.raw', false],
    ['local:1/vm-1-disk-0.vmdk', false],
    ['thick:vm-1-disk-0', false],
    ['thick:vm-1-disk-0.qcow2', true],
    ['iscsi:0.0.1.scsi-x', false],
    ['gone:vm-1-disk-0', false],
    ['/dev/sdb', false],
  ] as const)('%s → %s', (volid, ok) => expect(diskVerdict('scsi0', volid, types).ok).toBe(ok));

  it('skips CD-ROMs (the seed, a cloud-init drive) and keeps the EFI disk and TPM state', () => {
    const drives = snapshotDrives({
      ide2: 'proxy-seeds:iso/p-seed.iso,media=cdrom',
      ide0: 'local-lvm:vm-1-cloudinit,media=cdrom',
      efidisk0: 'local-lvm:vm-1-disk-0,efitype=4m,size=4M',
      tpmstate0: 'local-lvm:vm-1-disk-2,size=4M,version=v2.0',
      scsi0: 'local-lvm:vm-1-disk-1,size=4G',
      net0: 'virtio=BC:24:11:00:00:01,bridge=vmbr0',
    });
    expect(drives.map(([slot]) => slot).sort()).toEqual(['efidisk0', 'scsi0', 'tpmstate0']);
  });
});
