/** A storage's import volumes (download-url.ts puts them there) in its content listing and its volume delete. */
import type { RouteRequest } from '../context';
import { simImages } from '../images';
import type { StorageDefinition } from '../types';
import { storageUsage } from '../views';

/** The import volumes of a storage as its content listing shows them (`content: import`, format from the extension). */
export function importContent(req: RouteRequest, s: StorageDefinition): Record<string, unknown>[] {
  return simImages(req.sim)
    .list(req.path.node!, s.storage)
    .map((v) => ({ volid: `${s.storage}:import/${v.filename}`, content: 'import', format: v.format, size: v.bytes, ctime: v.ctime }));
}

/** A volume delete of `<storage>:import/<file>`: whether it named one (then it is gone and its space freed). */
export function deleteImportVolume(req: RouteRequest, s: StorageDefinition, volume: string): boolean {
  const rel = volume.startsWith(`${s.storage}:`) ? volume.slice(s.storage.length + 1) : volume;
  if (!rel.startsWith('import/')) return false;
  const gone = simImages(req.sim).remove(req.path.node!, s.storage, rel.slice('import/'.length));
  if (gone) s.usedBytes = Math.max(0, storageUsage(s).used - gone.bytes);
  return gone !== undefined;
}
