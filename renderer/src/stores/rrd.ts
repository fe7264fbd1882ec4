/**
 * Proxmox's RRD graphs as the views last asked for them: one entry per (target, timeframe, cf), loading, the
 * series or the error. Main caches and decides when to ask Proxmox again; this only remembers the answers.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppErrorValue } from '../../../shared/errors';
import type { RrdCf, RrdSeries, RrdTimeframe } from '../../../shared/channels/rrd';

export type RrdTarget = { kind: 'vm'; clusterId: string; node: string; vmid: number } | { kind: 'node'; clusterId: string; node: string };

export interface RrdEntry {
  loading: boolean;
  series: RrdSeries | undefined;
  error: AppErrorValue | undefined;
}

export const rrdKey = (t: RrdTarget, timeframe: RrdTimeframe, cf: RrdCf) =>
  t.kind === 'vm' ? `${t.clusterId}/vm/${t.node}/${t.vmid}/${timeframe}/${cf}` : `${t.clusterId}/node/${t.node}/${timeframe}/${cf}`;

/** Entries kept in the window; the oldest go first (main keeps its own bounded cache). */
const MAX_ENTRIES = 40;

export interface RrdState {
  entries: Record<string, RrdEntry>;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  load(target: RrdTarget, timeframe: RrdTimeframe, cf?: RrdCf): Promise<void>;
}

export const useRrd = create<RrdState>((set, get) => ({
  entries: {},
  api: undefined,

  attach(api) {
    set({ api });
    return () => set({ api: undefined });
  },

  async load(target, timeframe, cf = 'AVERAGE') {
    const key = rrdKey(target, timeframe, cf);
    const put = (entry: Partial<RrdEntry>) =>
      set((s) => {
        const { [key]: previous, ...rest } = s.entries;
        const kept = Object.entries(rest).slice(-(MAX_ENTRIES - 1));
        return {
          entries: { ...Object.fromEntries(kept), [key]: { series: undefined, error: undefined, loading: false, ...previous, ...entry } },
        };
      });
    const api = get().api;
    if (!api) {
      put({
        error: { kind: 'transient', message: 'The window is not connected to Egress Desk yet.', hint: 'Wait a moment, then try again.' },
      });
      return;
    }
    put({ loading: true, error: undefined });
    const answer =
      target.kind === 'vm'
        ? await api.request['rrd.vm']({ clusterId: target.clusterId, node: target.node, vmid: target.vmid, timeframe, cf })
        : await api.request['rrd.node']({ clusterId: target.clusterId, node: target.node, timeframe, cf });
    put(answer.ok ? { loading: false, series: answer.value, error: undefined } : { loading: false, error: answer.error });
  },
}));
