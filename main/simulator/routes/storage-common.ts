/** What the routes that find a storage on the request's node share (storage.ts, download-url.ts, vm-create.ts). */
import type { RouteRequest } from '../context';
import { noSuchStorage } from '../errors';
import type { StorageDefinition } from '../types';

/** pve-storage's file-based plugins: they hold files (import volumes, ISOs), not only block devices. */
export const FILE_BASED = new Set(['dir', 'nfs', 'cifs', 'cephfs', 'btrfs', 'glusterfs']);

/** The image file named in the captured texts (texts.ts), replaced by the request's own. */
export const CAPTURED_FILE = 'debian-12-genericcloud-amd64.qcow2';

/** The storage `id` on the request's node, or Proxmox's answer for a storage that is not there. */
export function storageOn(req: RouteRequest, id: string): StorageDefinition {
  const s = req.sim.state.node(req.path.node!)?.storages.get(id);
  if (!s) throw noSuchStorage();
  return s;
}

export const contents = (s: StorageDefinition) => s.content.split(',');
