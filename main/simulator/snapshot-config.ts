/**
 * Issue 25: what a snapshot's `[snapname]` section keeps of a config (proxmox/pve-guest-common@4a8f6cbf
 * src/PVE/AbstractConfig.pm __snapshot_copy_config): everything but the snapshot bookkeeping, the lock, the digest,
 * the description and unused disks. Its own file so the state can seed a dataset's snapshots (state.ts addVm)
 * without a circle through snapshots.ts.
 */

const NOT_COPIED = /^(snapshots|snapstate|snaptime|vmstate|lock|digest|description|unused\d+)$/;

/** __snapshot_copy_config: the current config as a snapshot keeps it. */
export function snapshotConfigOf(config: Record<string, string | number>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(config).filter(([k]) => !NOT_COPIED.test(k)));
}
