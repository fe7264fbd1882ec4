/**
 * Issue 25: which VMs can snapshot, and what a snapshot keeps, as Proxmox decides it.
 *
 * Can snapshot (proxmox/qemu-server@e6352be6 src/PVE/QemuConfig.pm has_feature): every drive of the config
 * (foreach_volume over valid_drive_names: ide, sata, scsi, virtio, efidisk0, tpmstate0) but a CD-ROM
 * (Drive.pm drive_is_cdrom: `media=cdrom`, which a cloud-init drive and the seed ISO on ide2 are) must answer
 * PVE::Storage::volume_has_feature('snapshot', $volid) (proxmox/pve-storage@0c56bad8 src/PVE/Storage.pm). Per
 * plugin, `snapshot => { current => … }`:
 * - LvmThinPlugin, ZFSPoolPlugin, RBDPlugin: any volume;
 * - Plugin.pm (dir, nfs, cifs, …): `{ qcow2 => 1 }` only, the format read from the name's extension (raw: no);
 * - LVMPlugin: `{ qcow2 => 1 }` only; a qcow2 LV exists only on a storage with `snapshot-as-volume-chain`
 *   (9.0 on: alloc_image "snapshot-as-volume-chain option need to be enabled to use qcow2 format"), named
 *   `….qcow2` (parse_volname), so plain thick LVM (raw) cannot;
 * - an absolute path, or a storage id the node does not have: no (Storage.pm returns undef).
 *
 * What a snapshot keeps (proxmox/pve-guest-common@4a8f6cbf src/PVE/AbstractConfig.pm __snapshot_copy_config):
 * the config but snapshots, snapstate, snaptime, vmstate, lock, digest, description and unusedN; a rollback
 * (__snapshot_apply_config) takes the snapshot's config back but keeps the current description and unusedN.
 */
import { optionOf } from './disks';
import { textError } from './errors';
import { snapshotConfigOf } from './snapshot-config';
import type { ClusterState, SimVm } from './state';

const DRIVE_KEY = /^(ide|sata|scsi|virtio)\d+$|^efidisk0$|^tpmstate0$/;
const ANY_VOLUME = new Set(['lvmthin', 'zfspool', 'rbd']);
const QCOW2_ONLY = new Set(['dir', 'nfs', 'lvm']);

/** Plugin volume_has_feature('snapshot', …, current) for one volume id on `node`. */
export function volumeCanSnapshot(state: ClusterState, node: string, volid: string): boolean {
  const colon = volid.indexOf(':');
  if (colon < 0) return false; // a path: Storage.pm volume_has_feature returns undef
  const storage = state.node(node)?.storages.get(volid.slice(0, colon));
  if (!storage) return false;
  if (ANY_VOLUME.has(storage.type)) return true;
  if (QCOW2_ONLY.has(storage.type)) return volid.endsWith('.qcow2');
  return false;
}

/** QemuConfig has_feature('snapshot', $conf): every non-CD-ROM drive's volume can. */
export function vmCanSnapshot(state: ClusterState, vm: SimVm): boolean {
  return Object.entries(vm.config).every(([key, value]) => {
    if (!DRIVE_KEY.test(key) || typeof value !== 'string') return true;
    if (optionOf(value, 'media') === 'cdrom') return true;
    return volumeCanSnapshot(state, vm.node, value.split(',')[0]!);
  });
}

export { snapshotConfigOf } from './snapshot-config';

/** __snapshot_apply_config: the snapshot's config, with the current description and unused disks kept. */
export function appliedConfig(
  current: Record<string, string | number>,
  snap: Record<string, string | number>,
): Record<string, string | number> {
  const kept = Object.fromEntries(Object.entries(current).filter(([k]) => /^unused\d+$/.test(k) || k === 'description'));
  return { ...snapshotConfigOf(snap), ...kept };
}

/** API2/Qemu.pm snapshot_list: every section, then `current` ("You are here!"). */
export function snapshotList(vm: SimVm, running: boolean, digest: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = Object.entries(vm.snapshots ?? {}).map(([name, d]) => {
    const item: Record<string, unknown> = { name, snaptime: d.snaptime, vmstate: d.vmstate ? 1 : 0, description: d.description ?? '' };
    if (d.parent) item.parent = d.parent;
    if (d.snapstate) item.snapstate = d.snapstate;
    return item;
  });
  const current: Record<string, unknown> = { name: 'current', digest, running: running ? 1 : 0, description: 'You are here!' };
  if (vm.parent) current.parent = vm.parent;
  out.push(current);
  return out;
}

/** API2/Qemu.pm get_snapshot_config (and vm_config with `snapshot`): the section as stored, or 500 when absent. */
export function snapshotConfigAnswer(vm: SimVm, name: string): Record<string, unknown> {
  const snap = vm.snapshots?.[name];
  if (!snap) throw textError('snapshotMissing', 500, { 'before-change': name });
  const out: Record<string, unknown> = { ...snap.config, snaptime: snap.snaptime };
  if (snap.description) out.description = snap.description;
  if (snap.parent) out.parent = snap.parent;
  if (snap.vmstate) out.vmstate = snap.vmstate;
  if (snap.snapstate) out.snapstate = snap.snapstate;
  return out;
}
