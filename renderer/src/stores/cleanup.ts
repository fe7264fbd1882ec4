/**
 * The last cleanup scan per cluster, the seeds the admin selected, and the
 * task a delete (or dry run) started. The delete's outcome is read from
 * that task in the tasks store: main reports it there.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppErrorValue } from '../../../shared/errors';
import type { CleanupReport, SeedRow } from '../../../shared/channels/cleanup';

export const seedKey = (s: Pick<SeedRow, 'node' | 'volid'>) => `${s.node}\u0000${s.volid}`;

export interface CleanupState {
  clusterId: string | undefined;
  report: CleanupReport | undefined;
  scanning: boolean;
  error: AppErrorValue | undefined;
  selected: ReadonlySet<string>;
  /** The task of the last delete or dry run, and whether it was a dry run. */
  lastRun: { taskId: string; dryRun: boolean; count: number } | undefined;
  submitting: boolean;
  /** Minutes under which seeds are kept; undefined uses the app's setting. */
  graceMinutes: number | undefined;
  api: DesktopApi | undefined;
  setGrace(minutes: number | undefined): void;
  attach(api: DesktopApi): () => void;
  setCluster(clusterId: string): void;
  scan(): Promise<void>;
  toggle(seed: SeedRow): void;
  selectAll(on: boolean): void;
  deleteSelected(dryRun: boolean): Promise<void>;
  /** Seeds a delete removed: out of the report at once, not at the next scan. */
  forget(seeds: Pick<SeedRow, 'node' | 'volid'>[]): void;
}

const notAttached: AppErrorValue = {
  kind: 'transient',
  message: 'The window is not connected to Egress Desk yet.',
  hint: 'Wait a moment for the connection, then try again.',
};

export const useCleanup = create<CleanupState>((set, get) => ({
  clusterId: undefined,
  report: undefined,
  scanning: false,
  error: undefined,
  selected: new Set(),
  lastRun: undefined,
  submitting: false,
  graceMinutes: undefined,
  api: undefined,

  setGrace: (graceMinutes) => set({ graceMinutes }),

  attach(api) {
    set({ api });
    return () => set({ api: undefined });
  },

  setCluster(clusterId) {
    if (clusterId === get().clusterId) return;
    set({ clusterId, report: undefined, selected: new Set(), error: undefined, lastRun: undefined });
  },

  async scan() {
    const { api, clusterId, graceMinutes } = get();
    if (!api || !clusterId) {
      set({ error: notAttached });
      return;
    }
    set({ scanning: true, error: undefined });
    const answer = await api.request['cleanup.scan'](graceMinutes === undefined ? { clusterId } : { clusterId, graceMinutes });
    if (get().clusterId !== clusterId) return;
    if (!answer.ok) {
      set({ scanning: false, error: answer.error });
      return;
    }
    // Keep only selections that are still orphans after the rescan.
    const still = new Set(answer.value.orphans.map(seedKey));
    set((s) => ({ scanning: false, report: answer.value, selected: new Set([...s.selected].filter((k) => still.has(k))) }));
  },

  forget(seeds) {
    const gone = new Set(seeds.map(seedKey));
    const report = get().report;
    if (!report || ![...report.orphans, ...report.kept].some((s) => gone.has(seedKey(s)))) return;
    const left = (rows: SeedRow[]) => rows.filter((s) => !gone.has(seedKey(s)));
    set((s) => ({
      report: { ...report, orphans: left(report.orphans), kept: left(report.kept) },
      selected: new Set([...s.selected].filter((k) => !gone.has(k))),
    }));
  },

  toggle(seed) {
    const key = seedKey(seed);
    set((s) => {
      const next = new Set(s.selected);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return { selected: next };
    });
  },

  selectAll(on) {
    set((s) => ({ selected: on ? new Set((s.report?.orphans ?? []).map(seedKey)) : new Set() }));
  },

  async deleteSelected(dryRun) {
    const { api, clusterId, report, selected, graceMinutes } = get();
    if (!api || !clusterId) {
      set({ error: notAttached });
      return;
    }
    const seeds = (report?.orphans ?? []).filter((s) => selected.has(seedKey(s))).map(({ node, volid }) => ({ node, volid }));
    if (seeds.length === 0) return;
    set({ submitting: true, error: undefined });
    const answer = await api.request['cleanup.deleteSeeds'](
      graceMinutes === undefined ? { clusterId, seeds, dryRun } : { clusterId, seeds, dryRun, graceMinutes },
    );
    if (!answer.ok) {
      set({ submitting: false, error: answer.error });
      return;
    }
    set({
      submitting: false,
      lastRun: { taskId: answer.value.taskId, dryRun, count: seeds.length },
      selected: dryRun ? selected : new Set(),
    });
  },
}));
