/**
 * Connect-doctor runs, keyed by who asked (the wizard, the Templates view
 * of one cluster), each with its per-step progress from `doctor.progress`
 * and the final report or error.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { DoctorReport, DoctorRunInput, DoctorStep, SectionStatus } from '../../../shared/channels/doctor';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import { notAttached } from './not-attached';

export interface StepProgress {
  state: 'waiting' | 'running' | 'done';
  status?: SectionStatus;
}

export interface DoctorRun {
  runId: string;
  running: boolean;
  steps: Record<DoctorStep, StepProgress>;
  report: DoctorReport | undefined;
  error: AppErrorValue | undefined;
}

export interface DoctorState {
  runs: Record<string, DoctorRun>;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  /** Runs the doctor for `key`; a newer run under the same key supersedes the older one's answer. */
  run(key: string, input: Omit<DoctorRunInput, 'runId'>): Promise<Envelope<DoctorReport>>;
  forget(key: string): void;
}

const waiting = (): Record<DoctorStep, StepProgress> => ({
  tls: { state: 'waiting' },
  token: { state: 'waiting' },
  discovery: { state: 'waiting' },
  privileges: { state: 'waiting' },
});

let counter = 0;

export const useDoctor = create<DoctorState>((set, get) => {
  const patch = (key: string, runId: string, change: (run: DoctorRun) => Partial<DoctorRun>) => {
    const run = get().runs[key];
    if (run?.runId !== runId) return;
    set({ runs: { ...get().runs, [key]: { ...run, ...change(run) } } });
  };
  return {
    runs: {},
    api: undefined,

    attach(api) {
      set({ api });
      return api.on['doctor.progress']((p) => {
        const key = Object.keys(get().runs).find((k) => get().runs[k]?.runId === p.runId);
        if (key) patch(key, p.runId, (run) => ({ steps: { ...run.steps, [p.step]: { state: p.state, status: p.status } } }));
      });
    },

    async run(key, input) {
      const api = get().api;
      if (!api) return notAttached();
      const runId = `${key}-${++counter}-${Date.now()}`;
      set({ runs: { ...get().runs, [key]: { runId, running: true, steps: waiting(), report: undefined, error: undefined } } });
      const answer = await api.request['doctor.run']({ ...input, runId });
      patch(key, runId, () => (answer.ok ? { running: false, report: answer.value } : { running: false, error: answer.error }));
      return answer;
    },

    forget(key) {
      const { [key]: _gone, ...rest } = get().runs;
      set({ runs: rest });
    },
  };
});
