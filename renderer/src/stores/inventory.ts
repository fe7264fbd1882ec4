/**
 * Every cluster's VMs and nodes as main last told us: a snapshot, then
 * `inventory.delta` events applied in revision order. A gap in revisions
 * means a delta was missed, so the store asks for a fresh snapshot rather
 * than guess.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppErrorValue } from '../../../shared/errors';
import type { ClusterInventory, InventoryDelta, InventorySnapshot, VmRow } from '../../../shared/channels/inventory';

export interface InventoryState {
  /** Clusters in the order main listed them. */
  clusters: ClusterInventory[];
  revision: number;
  loaded: boolean;
  error: AppErrorValue | undefined;
  api: DesktopApi | undefined;
  /** Loads the snapshot, then follows deltas; returns the unsubscribe. */
  attach(api: DesktopApi): () => void;
  reload(): Promise<void>;
  applySnapshot(snapshot: InventorySnapshot): void;
  applyDelta(delta: InventoryDelta): void;
}

function mergeRows(rows: VmRow[], delta: InventoryDelta): VmRow[] {
  const byVmid = new Map(rows.map((r) => [r.vmid, r]));
  for (const vmid of delta.removed) byVmid.delete(vmid);
  for (const r of delta.added) byVmid.set(r.vmid, r);
  for (const r of delta.changed) byVmid.set(r.vmid, r);
  return [...byVmid.values()];
}

function applyToCluster(c: ClusterInventory, d: InventoryDelta): ClusterInventory {
  return {
    ...c,
    vms: mergeRows(c.vms, d),
    nodes: d.nodes ?? c.nodes,
    status: d.status ?? c.status,
  };
}

export const useInventory = create<InventoryState>((set, get) => {
  // Deltas that arrive while a snapshot is in flight wait here, then apply above its revision.
  let pending: InventoryDelta[] | undefined;

  return {
    clusters: [],
    revision: 0,
    loaded: false,
    error: undefined,
    api: undefined,

    attach(api) {
      set({ api });
      const off = api.on['inventory.delta']((d) => get().applyDelta(d));
      void get().reload();
      return off;
    },

    async reload() {
      const api = get().api;
      if (!api) return;
      pending = [];
      const answer = await api.request['inventory.snapshot']({});
      const waiting = pending;
      pending = undefined;
      if (!answer.ok) {
        set({ error: answer.error });
        return;
      }
      get().applySnapshot(answer.value);
      for (const d of waiting) get().applyDelta(d);
    },

    applySnapshot(snapshot) {
      set({ clusters: snapshot.clusters, revision: snapshot.revision, loaded: true, error: undefined });
    },

    applyDelta(d) {
      if (pending) {
        pending.push(d);
        return;
      }
      const { revision, clusters } = get();
      if (d.revision <= revision) return;
      if (d.revision !== revision + 1 && get().loaded) {
        void get().reload();
        return;
      }
      if (d.clusterRemoved) {
        set({ revision: d.revision, clusters: clusters.filter((c) => c.clusterId !== d.clusterId) });
        return;
      }
      const known = clusters.some((c) => c.clusterId === d.clusterId);
      if (!known) {
        // A cluster we have no snapshot of: its name and rows come with the next snapshot.
        void get().reload();
        return;
      }
      set({ revision: d.revision, clusters: clusters.map((c) => (c.clusterId === d.clusterId ? applyToCluster(c, d) : c)) });
    },
  };
});
