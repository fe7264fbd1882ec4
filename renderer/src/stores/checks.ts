/**
 * Scheduled egress checks as main last told us: per proxy, the latest check
 * and the last few latencies (the table's cell), loaded per cluster as the
 * inventory lists clusters, then kept current by `checks.result`; and the
 * history of the proxies whose drawer is open, loaded on demand.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import { TREND_POINTS, type CheckEntry, type CheckHistory, type ProxyCheckSummary } from '../../../shared/channels/checks';
import type { AppErrorValue } from '../../../shared/errors';
import { useInventory } from './inventory';
import { notAttached } from './not-attached';

export const checksKey = (clusterId: string, vmid: number) => `${clusterId}/${vmid}`;

/** The drawer shows a day of checks, at most this many. */
export const HISTORY_HOURS = 24;
export const HISTORY_LIMIT = 288;

export interface HistoryEntry {
  loading: boolean;
  value: CheckHistory | undefined;
  error: AppErrorValue | undefined;
}

export interface ChecksState {
  /** `${clusterId}/${vmid}` → the latest check and the latency trend. */
  latest: Record<string, ProxyCheckSummary>;
  /** Clusters whose latest checks were asked for. */
  loadedClusters: Record<string, true>;
  histories: Record<string, HistoryEntry>;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  reload(): Promise<void>;
  loadCluster(clusterId: string): Promise<void>;
  applyResult(entry: CheckEntry): void;
  /** `quiet`: a refresh of what is shown (no loading state, a failure keeps it). */
  loadHistory(clusterId: string, vmid: number, options?: { quiet?: boolean }): Promise<void>;
  setEnabled(clusterId: string, vmid: number, enabled: boolean): Promise<AppErrorValue | undefined>;
  /** Issue 24: the proxy's expected exit typed, the learned one confirmed, or cleared; main's refusal when it refuses. */
  setExpectedExit(
    clusterId: string,
    vmid: number,
    change: { expected: string } | { confirmLearned: true } | { clear: true },
  ): Promise<AppErrorValue | undefined>;
  /** Issue 24: the proxy's own targets (`vmid`) or a tag's; main's refusal when it refuses. */
  setTargets(
    clusterId: string,
    owner: { vmid: number } | { tag: string },
    targets: string[],
    vmid: number,
  ): Promise<AppErrorValue | undefined>;
}

export const useChecks = create<ChecksState>((set, get) => ({
  latest: {},
  loadedClusters: {},
  histories: {},
  api: undefined,

  attach(api) {
    set({ api });
    const off = api.on['checks.result']((entry) => get().applyResult(entry));
    // A check's targets were recorded: an open drawer reads its history again (they come after the check's own result).
    const offTargets = api.on['checks.targets'](({ clusterId, vmid }) => {
      if (get().histories[checksKey(clusterId, vmid)]?.value) void get().loadHistory(clusterId, vmid);
    });
    // Each cluster the inventory lists gets its latest checks once; a reconnect reloads them all.
    const follow = () => {
      for (const c of useInventory.getState().clusters) if (!get().loadedClusters[c.clusterId]) void get().loadCluster(c.clusterId);
    };
    const offInventory = useInventory.subscribe(follow);
    follow();
    return () => {
      off();
      offTargets();
      offInventory();
      set({ api: undefined });
    };
  },

  async reload() {
    const clusters = Object.keys(get().loadedClusters);
    set({ loadedClusters: {} });
    await Promise.all(clusters.map((c) => get().loadCluster(c)));
    for (const key of Object.keys(get().histories)) {
      const [clusterId, vmid] = [key.slice(0, key.lastIndexOf('/')), Number(key.slice(key.lastIndexOf('/') + 1))];
      void get().loadHistory(clusterId, vmid);
    }
  },

  async loadCluster(clusterId) {
    const api = get().api;
    if (!api) return;
    set((s) => ({ loadedClusters: { ...s.loadedClusters, [clusterId]: true } }));
    const answer = await api.request['checks.latest']({ clusterId });
    if (!answer.ok) return;
    set((s) => {
      const latest = { ...s.latest };
      for (const p of answer.value.proxies) latest[checksKey(clusterId, p.vmid)] = p;
      return { latest };
    });
  },

  applyResult(entry) {
    const key = checksKey(entry.clusterId, entry.vmid);
    set((s) => {
      const before = s.latest[key];
      const point = entry.ok && entry.latencyMs !== undefined ? entry.latencyMs : null;
      const latest = {
        ...s.latest,
        [key]: { vmid: entry.vmid, latest: entry, trend: [...(before?.trend ?? []), point].slice(-TREND_POINTS) },
      };
      const open = s.histories[key];
      if (!open?.value) return { latest };
      const checks = [...open.value.checks, entry].slice(-HISTORY_LIMIT);
      return { latest, histories: { ...s.histories, [key]: { ...open, value: { ...open.value, checks } } } };
    });
    // A good check may have changed what main proposes as the exit (the first one, or one outside the expected):
    // an open drawer reads it again, quietly.
    if (entry.ok && entry.egressAddress && get().histories[key]?.value) void get().loadHistory(entry.clusterId, entry.vmid, { quiet: true });
  },

  async loadHistory(clusterId, vmid, options = {}) {
    const key = checksKey(clusterId, vmid);
    const put = (entry: Partial<HistoryEntry>) =>
      set((s) => ({
        histories: { ...s.histories, [key]: { ...(s.histories[key] ?? { loading: false, value: undefined, error: undefined }), ...entry } },
      }));
    const api = get().api;
    if (!options.quiet) put({ loading: true });
    const input = { clusterId, vmid, hours: HISTORY_HOURS, limit: HISTORY_LIMIT };
    const answer = api ? await api.request['checks.history'](input) : await notAttached<CheckHistory>();
    if (options.quiet && !answer.ok) return; // the drawer keeps what it shows; the next read says what went wrong
    put(answer.ok ? { loading: false, value: answer.value, error: undefined } : { loading: false, error: answer.error });
  },

  async setEnabled(clusterId, vmid, enabled) {
    const api = get().api;
    const input = { clusterId, vmid, enabled };
    const answer = api ? await api.request['checks.setProxyEnabled'](input) : await notAttached<{ enabled: boolean }>();
    if (!answer.ok) return answer.error;
    await get().loadHistory(clusterId, vmid);
    return undefined;
  },

  async setTargets(clusterId, owner, targets, vmid) {
    const api = get().api;
    const answer = api
      ? await api.request['checks.setTargets']({ clusterId, ...owner, targets })
      : await notAttached<{ targets: string[] }>();
    if (!answer.ok) return answer.error;
    await get().loadHistory(clusterId, vmid);
    return undefined;
  },

  async setExpectedExit(clusterId, vmid, change) {
    const api = get().api;
    const answer = api
      ? await api.request['checks.setExpectedExit']({ clusterId, vmid, ...change })
      : await notAttached<{ expectedExit?: string[] }>();
    if (!answer.ok) return answer.error;
    await get().loadHistory(clusterId, vmid);
    return undefined;
  },
}));
