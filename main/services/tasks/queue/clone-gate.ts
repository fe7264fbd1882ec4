/**
 * The core's clone gate (CloneGate, main/core/provider/calls/context.ts) over the task manager's slots: a create's full
 * clone, and a migrate's copy, take a copy slot of the storage they write (and a migrate also of the one it reads),
 * keyed by cloneStorageKey, for the length of that Proxmox task. Whether a storage is shared (one key for the
 * cluster: every node writes to the same NAS) or local (one per node) comes from the cluster's `/cluster/resources`
 * listing, shared with placement and the create lookups (core/provider/cluster/lookup.ts) and kept a short while.
 */
import { type CloneGate, clusterListing, type PveApi } from '../../../core';
import type { Logger } from '../../../log/logger';
import { cloneStorageKey, type Slots } from './slots';

export interface CloneGatesOptions {
  slots: Pick<Slots, 'acquireStorage'>;
  api: (clusterId: string) => PveApi;
  log: Logger;
  /** How old a cluster listing may be to tell which storages are shared (default 60 s). */
  ttlMs?: number;
}

const never = new AbortController().signal;

export function createCloneGates(o: CloneGatesOptions) {
  const ttlMs = o.ttlMs ?? 60_000;

  /**
   * storage id -> shared, for one cluster, from its whole listing as read at most `ttlMs` ago: which storages are
   * shared is configuration, and the listing automatic placement has just read (or one on the wire) serves every
   * create of a bulk, so its first clones do not wait for a read of their own at the node the URL reaches.
   */
  async function sharedOf(clusterId: string, signal: AbortSignal): Promise<ReadonlyMap<string, boolean>> {
    const rows = await clusterListing(o.api(clusterId), { maxAgeMs: ttlMs, signal });
    const map = new Map<string, boolean>();
    for (const r of rows) {
      if (r.type !== 'storage' || !r.storage) continue;
      const isShared = r.shared === true || (r.shared as unknown) === 1;
      map.set(r.storage, (map.get(r.storage) ?? false) || isShared);
    }
    return map;
  }

  async function keyOf(clusterId: string, node: string, storage: string, signal: AbortSignal): Promise<string> {
    let shared: boolean;
    try {
      // Unknown to the listing (it will fail on its own): counted as shared, the stricter of the two.
      shared = (await sharedOf(clusterId, signal)).get(storage) ?? true;
    } catch (e) {
      signal.throwIfAborted();
      // Without the listing, the stricter key: one for the whole cluster.
      o.log.warn('storage listing for the clone limit failed; counting the storage as shared', { clusterId, storage, error: String(e) });
      shared = true;
    }
    return cloneStorageKey({ clusterId, node, storage, shared });
  }

  /** The gate a create of cluster `clusterId` waits at before each disk copy. */
  return function gateFor(clusterId: string): CloneGate {
    return async ({ node, storage, from }, signal = never) => {
      if (storage === undefined) return () => undefined;
      const keys = new Set([await keyOf(clusterId, node, storage, signal)]);
      if (from) keys.add(await keyOf(clusterId, from.node, from.storage, signal));
      // Taken one after the other, always in the same order, so two copies in opposite directions cannot each hold
      // the slot the other waits for.
      const releases: (() => void)[] = [];
      try {
        for (const key of [...keys].sort()) releases.push(await o.slots.acquireStorage(key, signal));
      } catch (e) {
        for (const r of releases) r();
        throw e;
      }
      return () => {
        for (const r of releases.reverse()) r();
      };
    };
  };
}
