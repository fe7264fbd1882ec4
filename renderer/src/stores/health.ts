/**
 * Node health per cluster: the latest check and the last hour of points,
 * from a snapshot and then `health.update` pushes. Updates that arrive
 * while the snapshot is in flight are applied after it.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { HealthSnapshot, HealthUpdate, NodeHealthHistory } from '../../../shared/channels/health';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import { notAttached } from './not-attached';

/** The trend charts show an hour; older points are let go. */
export const HISTORY_MS = 60 * 60 * 1000;

export type ClusterHealth = Record<string, NodeHealthHistory>;

export interface HealthState {
  clusters: Record<string, ClusterHealth>;
  loaded: boolean;
  error: AppErrorValue | undefined;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  reload(): Promise<void>;
  applySnapshot(snapshot: HealthSnapshot): void;
  applyUpdate(update: HealthUpdate): void;
  checkNow(clusterId: string): Promise<Envelope<unknown>>;
}

function withinHour<T extends { at: string }>(points: T[], now: number): T[] {
  const first = points.findIndex((p) => now - Date.parse(p.at) <= HISTORY_MS);
  return first <= 0 ? (first === -1 ? [] : points) : points.slice(first);
}

export const useHealth = create<HealthState>((set, get) => {
  let waiting: HealthUpdate[] | undefined;
  return {
    clusters: {},
    loaded: false,
    error: undefined,
    api: undefined,

    attach(api) {
      set({ api });
      const off = api.on['health.update']((u) => get().applyUpdate(u));
      void get().reload();
      return off;
    },

    async reload() {
      const api = get().api;
      if (!api) return;
      waiting = [];
      const answer = await api.request['health.snapshot']({});
      const held = waiting;
      waiting = undefined;
      if (!answer.ok) {
        set({ error: answer.error });
        return;
      }
      get().applySnapshot(answer.value);
      for (const u of held) get().applyUpdate(u);
    },

    applySnapshot(snapshot) {
      const clusters: Record<string, ClusterHealth> = {};
      for (const c of snapshot.clusters) clusters[c.clusterId] = Object.fromEntries(c.nodes.map((n) => [n.node, n]));
      set({ clusters, loaded: true, error: undefined });
    },

    applyUpdate(u) {
      if (waiting) {
        waiting.push(u);
        return;
      }
      const cluster = get().clusters[u.clusterId] ?? {};
      const before = cluster[u.node];
      const history = withinHour([...(before?.history ?? []), u.point], Date.parse(u.point.at));
      set({ clusters: { ...get().clusters, [u.clusterId]: { ...cluster, [u.node]: { node: u.node, latest: u.latest, history } } } });
    },

    checkNow: (clusterId) => get().api?.request['health.check']({ clusterId }) ?? notAttached(),
  };
});
