/**
 * The core's clone gate (CloneGate, main/core/provider/context.ts) over the task manager's slots: a create's full
 * clone, and a migrate's copy, take a copy slot of the storage they write (and a migrate also of the one it reads),
 * keyed by cloneStorageKey, for the length of that Proxmox task. Whether a storage is shared (one key for the
 * cluster: every node writes to the same NAS) or local (one per node) comes from `/cluster/resources?type=storage`,
 * read once per cluster and kept a short while.
 */
import type { CloneGate } from '../../core';
import type { PveApi } from '../../core/pve/api';
import type { Logger } from '../../log/logger';
import { cloneStorageKey, type Slots } from './slots';

export interface CloneGatesOptions {
  slots: Pick<Slots, 'acquireStorage'>;
  api: (clusterId: string) => PveApi;
  log: Logger;
  /** How long a cluster's storage listing is kept (default 60 s). */
  ttlMs?: number;
  now?: () => number;
}

interface Listing {
  at: number;
  shared: Promise<ReadonlyMap<string, boolean>>;
}

const never = new AbortController().signal;

export function createCloneGates(o: CloneGatesOptions) {
  const ttlMs = o.ttlMs ?? 60_000;
  const now = o.now ?? Date.now;
  const listings = new Map<string, Listing>();

  /** storage id -> shared, for one cluster; one listing in flight at a time, shared by every create that asks. */
  function sharedOf(clusterId: string, signal: AbortSignal): Promise<ReadonlyMap<string, boolean>> {
    const held = listings.get(clusterId);
    if (held && now() - held.at < ttlMs) return held.shared;
    const shared = o
      .api(clusterId)
      .clusterResources('storage', { signal })
      .then((rows) => {
        const map = new Map<string, boolean>();
        for (const r of rows) {
          if (r.type !== 'storage' || !r.storage) continue;
          const isShared = r.shared === true || (r.shared as unknown) === 1;
          map.set(r.storage, (map.get(r.storage) ?? false) || isShared);
        }
        return map;
      });
    listings.set(clusterId, { at: now(), shared });
    // A failed read is not kept: the next clone asks again.
    shared.catch(() => {
      if (listings.get(clusterId)?.shared === shared) listings.delete(clusterId);
    });
    return shared;
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
