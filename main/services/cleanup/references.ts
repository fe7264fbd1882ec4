/**
 * Who uses a seed. The reference check itself (CD-ROM-capable slots of VM
 * configs, an unreadable config counting as "may use it") lives in the core,
 * main/core/provider/cluster/ownership.ts, so the delete and the cleanup make the
 * same check; this module adds what only the cleanup needs.
 */
export { driveRefs, readConfigs, seedHolds, vmReasonToKeep, vmsToRead, type ConfigRead } from '../../core';

const SEED_SUFFIX = '-seed.iso';

export interface SeedVolume {
  node: string;
  volid: string;
  name: string;
  size: number;
  ctime?: number;
}

/** `<isoStorage>:iso/<name>-seed.iso` → `<name>`; anything else is not a seed. */
export function seedName(isoStorage: string, volid: string): string | undefined {
  const prefix = `${isoStorage}:iso/`;
  if (!volid.startsWith(prefix) || !volid.endsWith(SEED_SUFFIX)) return undefined;
  const name = volid.slice(prefix.length, -SEED_SUFFIX.length);
  return name.length > 0 && !name.includes('/') ? name : undefined;
}
