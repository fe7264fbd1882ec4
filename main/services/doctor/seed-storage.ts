/**
 * Which storage should hold the seeds, and why. A dedicated ISO-only
 * storage is best: the token needs Datastore.Allocate there to delete
 * seeds, and on a dedicated storage that privilege cannot touch backups or
 * other ISOs (spec entry 14, the guide's seed storage).
 */
import type { DiscoverySection } from '../../../shared/channels/doctor';

type IsoStorage = DiscoverySection['data']['isoStorages'][number];
export type SeedStorageChoice = NonNullable<DiscoverySection['data']['seedStorage']>;

/** The name the guide gives the dedicated seed storage. */
export const RECOMMENDED_SEED_STORAGE = 'proxy-seeds';
export const DEDICATED_STORAGE_COMMAND = `pvesm add dir ${RECOMMENDED_SEED_STORAGE} --path /var/lib/proxy-seeds --content iso`;

/** Storages with ISO content, active on every listed node. */
function usableEverywhere(storages: readonly IsoStorage[], nodes: readonly string[]): Map<string, IsoStorage[]> {
  const byId = new Map<string, IsoStorage[]>();
  for (const s of storages) if (s.active) byId.set(s.storage, [...(byId.get(s.storage) ?? []), s]);
  for (const [id, list] of byId) if (!nodes.every((n) => list.some((s) => s.node === n))) byId.delete(id);
  return byId;
}

function reasonFor(s: IsoStorage): string {
  if (s.dedicated) {
    return `${s.storage} holds only ISO images: the token needs Datastore.Allocate there to delete seeds, and on a dedicated storage that privilege cannot touch backups or other ISOs.`;
  }
  const others = s.content.filter((c) => c !== 'iso').join(', ');
  return `${s.storage} is the best storage with ISO content, but it also holds ${others}: Datastore.Allocate there (needed to delete seeds) would let the token delete those too. Better: a dedicated one, \`${DEDICATED_STORAGE_COMMAND}\`.`;
}

/** The profile's choice when given (undefined if it is not usable), else the best candidate. */
export function chooseSeedStorage(
  storages: readonly IsoStorage[],
  nodes: readonly string[],
  wanted?: string,
): SeedStorageChoice | undefined {
  const usable = usableEverywhere(storages, nodes);
  if (wanted !== undefined) {
    const found = usable.get(wanted)?.[0];
    return found ? { storage: wanted, dedicated: found.dedicated, reason: `the profile's choice; ${reasonFor(found)}` } : undefined;
  }
  const ranked = [...usable.values()]
    .map((list) => list[0]!)
    .sort(
      (a, b) =>
        Number(b.dedicated) - Number(a.dedicated) ||
        Number(/seed/i.test(b.storage)) - Number(/seed/i.test(a.storage)) ||
        a.storage.localeCompare(b.storage),
    );
  const best = ranked[0];
  return best ? { storage: best.storage, dedicated: best.dedicated, reason: reasonFor(best) } : undefined;
}
