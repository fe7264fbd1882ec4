/**
 * Issue 25: the app's own snapshot names, and whether a VM's disks can snapshot, in words.
 *
 * Names: `egressdesk-<yyyymmdd>-<hhmmss>-<kind>` in UTC, e.g. `egressdesk-20261202-155200-reconfigure` (38
 * characters). Proxmox's rule is `pve-snapshot-name` (pve-common src/PVE/JSONSchema.pm: format pve-configid,
 * `^[a-z][a-z0-9_-]+$` case-insensitive, maxLength 40; qemu-server API2/Qemu.pm snapshot refuses `current` and
 * `pending`). Only a name of exactly this shape with a known kind is the app's; anything else is someone else's
 * and is listed read-only.
 *
 * Can it snapshot (qemu-server src/PVE/QemuConfig.pm has_feature, pve-storage src/PVE/Storage.pm and each plugin's
 * volume_has_feature `snapshot => { current => … }`): every drive but a CD-ROM (`media=cdrom`: the seed ISO, a
 * cloud-init drive) must be on
 * - lvmthin, zfspool, rbd (any volume; ZFSPoolPlugin, LvmThinPlugin, RBDPlugin), or
 * - a file storage (dir, nfs, cifs, glusterfs; Plugin.pm) as a qcow2 image (raw and vmdk cannot), or
 * - lvm as a qcow2 volume (LVMPlugin: qcow2 only; such volumes exist only with 9.x's `snapshot-as-volume-chain`,
 *   named `….qcow2`): plain thick LVM (raw) cannot.
 * The EFI disk and the TPM state are drives like the others. Other storage types (btrfs, iscsi, cephfs, …) are
 * not judged here: the app says it does not know rather than guessing.
 */

import { redactSecrets } from '../../../log/secrets';

export const SNAPSHOT_PREFIX = 'egressdesk-';
/** What the snapshot was taken before: a reconfigure, a user-data change, a migrate, a credential rotation. */
export const SNAPSHOT_KINDS = ['reconfigure', 'userdata', 'migrate', 'rotate'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** pve-snapshot-name. */
export const PVE_SNAPSHOT_NAME = /^[a-z][a-z0-9_-]+$/i;
export const PVE_SNAPSHOT_NAME_MAX = 40;

const OWN = /^egressdesk-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([a-z]+)$/;
const two = (n: number) => String(n).padStart(2, '0');

/** The app's name for a snapshot taken at `at` before a change of `kind`. */
export function snapshotName(kind: SnapshotKind, at: Date): string {
  const d = `${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}`;
  const t = `${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`;
  return `${SNAPSHOT_PREFIX}${d}-${t}-${kind}`;
}

/** The kind and time of one of the app's own snapshots, or undefined for anyone else's. */
export function ownSnapshot(name: string): { kind: SnapshotKind; takenAt: Date } | undefined {
  const m = OWN.exec(name);
  if (!m) return undefined;
  const kind = m[7] as SnapshotKind;
  if (!SNAPSHOT_KINDS.includes(kind)) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const takenAt = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls month 13 into the next year: only a name that is its own time's name is the app's.
  return !Number.isNaN(takenAt.getTime()) && snapshotName(kind, takenAt) === name ? { kind, takenAt } : undefined;
}

/** The description the app gives its snapshot: what change it is kept for. */
export function snapshotDescription(kind: SnapshotKind, change: string): string {
  const before = { reconfigure: 'a reconfigure', userdata: 'a user-data change', migrate: 'a migrate', rotate: 'a credential rotation' }[
    kind
  ];
  // Stored in Proxmox's config: a known secret that slipped into the words never goes with it.
  return redactSecrets(`Taken by Egress Desk before ${before}: ${change}`).slice(0, 8192);
}

const DRIVE_KEY = /^(ide|sata|scsi|virtio)\d+$|^efidisk0$|^tpmstate0$/;
const ANY_VOLUME = new Set(['lvmthin', 'zfspool', 'rbd']);
const FILE_QCOW2 = new Set(['dir', 'nfs', 'cifs', 'glusterfs']);
const TYPE_WORDS: Record<string, string> = {
  dir: 'directory',
  nfs: 'NFS',
  cifs: 'SMB/CIFS',
  glusterfs: 'GlusterFS',
  lvm: 'LVM (thick)',
  lvmthin: 'LVM-thin',
  zfspool: 'ZFS',
  rbd: 'Ceph RBD',
};

export interface DiskSnapshotVerdict {
  /** The config key: scsi0, efidisk0, tpmstate0, … */
  slot: string;
  volid: string;
  storage?: string;
  /** The storage's type, when the token can see the storage. */
  type?: string;
  ok: boolean;
  /** Plain words, when it cannot. */
  why?: string;
}

function formatOf(volid: string): string {
  const m = /\.(qcow2|raw|vmdk)$/.exec(volid);
  return m ? m[1]! : 'raw';
}

/** One drive: `types` maps the node's storage ids to their types (what /nodes/{node}/storage lists). */
export function diskVerdict(slot: string, volid: string, types: ReadonlyMap<string, string>): DiskSnapshotVerdict {
  const colon = volid.indexOf(':');
  if (colon < 0) return { slot, volid, ok: false, why: `${slot} is a path (${volid}), not a storage volume: Proxmox cannot snapshot it` };
  const storage = volid.slice(0, colon);
  const type = types.get(storage);
  if (type === undefined)
    return {
      slot,
      volid,
      storage,
      ok: false,
      why: `${slot} is on storage '${storage}', which this token cannot see, so whether it can snapshot is unknown`,
    };
  const at = { slot, volid, storage, type };
  const words = TYPE_WORDS[type] ?? type;
  if (ANY_VOLUME.has(type)) return { ...at, ok: true };
  if (FILE_QCOW2.has(type) || type === 'lvm') {
    const format = formatOf(volid);
    if (format === 'qcow2') return { ...at, ok: true };
    const lvm = type === 'lvm' ? ' (on Proxmox VE 9, a storage with snapshot-as-volume-chain holds qcow2 volumes that can)' : '';
    return {
      ...at,
      ok: false,
      why: `${slot} is a ${format} volume on ${words} storage '${storage}': Proxmox snapshots only qcow2 volumes there${lvm}`,
    };
  }
  return {
    ...at,
    ok: false,
    why: `${slot} is on ${words} storage '${storage}': Egress Desk does not know whether that storage type can snapshot`,
  };
}

/** Every drive of a config but CD-ROMs (QemuConfig.pm has_feature skips drive_is_cdrom). */
export function snapshotDrives(config: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(config)
    .filter(([k, v]) => DRIVE_KEY.test(k) && !/(^|,)media=cdrom(,|$)/.test(v))
    .map(([k, v]) => [k, v.split(',')[0]!]);
}

/** Plain words for a VM whose drives cannot all snapshot, naming each that cannot. */
export function unsupportedWords(vmid: number, disks: readonly DiskSnapshotVerdict[]): string | undefined {
  const bad = disks.filter((d) => !d.ok);
  if (bad.length === 0) return undefined;
  return `VM ${vmid} cannot be snapshotted: ${bad.map((d) => d.why).join('; ')}.`;
}
