/**
 * The template builder (issue 14): which cluster it is open for, the last
 * preflight main answered (a newer one supersedes an older answer), the
 * build task it started, and Verify's answer. Main decides everything; this
 * only carries the answers to the views.
 */
import { create } from 'zustand';
import type { ChannelOutput } from '../../../shared/contract';
import type { BuildPreflightView, BuildTemplateInput } from '../../../shared/channels/templates';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import { notAttached } from './not-attached';
import { useTasks } from './tasks';

export type VerifyAnswer = ChannelOutput<'templates.verify'>;

export interface TemplateBuilderState {
  /** The cluster the builder is open for; undefined: closed. */
  clusterId: string | undefined;
  /** The build task started from the builder; its progress is the tasks store's. */
  taskId: string | undefined;
  preflight: { running: boolean; result: BuildPreflightView | undefined; error: AppErrorValue | undefined; seq: number };
  verify: { running: boolean; answer: VerifyAnswer | undefined; error: AppErrorValue | undefined };
  startError: AppErrorValue | undefined;
  open(clusterId: string): void;
  close(): void;
  runPreflight(input: BuildTemplateInput): Promise<void>;
  start(input: BuildTemplateInput): Promise<Envelope<{ taskId: string }>>;
  runVerify(clusterId: string, vmid: number, key: string): Promise<void>;
}

const idle = { running: false, result: undefined, error: undefined, seq: 0 };

export const useTemplateBuilder = create<TemplateBuilderState>((set, get) => ({
  clusterId: undefined,
  taskId: undefined,
  preflight: idle,
  verify: { running: false, answer: undefined, error: undefined },
  startError: undefined,

  open: (clusterId) =>
    set({
      clusterId,
      taskId: undefined,
      preflight: { ...idle, seq: get().preflight.seq + 1 },
      verify: { running: false, answer: undefined, error: undefined },
      startError: undefined,
    }),
  close: () => set({ clusterId: undefined, taskId: undefined, startError: undefined }),

  async runPreflight(input) {
    const api = useTasks.getState().api;
    const seq = get().preflight.seq + 1;
    set((s) => ({ preflight: { ...s.preflight, running: true, seq } }));
    const answer: Envelope<BuildPreflightView> = api ? await api.request['templates.preflight'](input) : await notAttached();
    if (get().preflight.seq !== seq) return; // a newer preflight was asked for
    set({
      preflight: answer.ok
        ? { running: false, result: answer.value, error: undefined, seq }
        : { running: false, result: undefined, error: answer.error, seq },
    });
  },

  async start(input) {
    const api = useTasks.getState().api;
    const answer = api ? await api.request['templates.build'](input) : await notAttached<{ taskId: string }>();
    set(answer.ok ? { taskId: answer.value.taskId, startError: undefined } : { startError: answer.error });
    return answer;
  },

  async runVerify(clusterId, vmid, key) {
    const api = useTasks.getState().api;
    set({ verify: { running: true, answer: undefined, error: undefined } });
    const answer = api ? await api.request['templates.verify']({ clusterId, vmid, key }) : await notAttached<VerifyAnswer>();
    set({
      verify: answer.ok
        ? { running: false, answer: answer.value, error: undefined }
        : { running: false, answer: undefined, error: answer.error },
    });
  },
}));

export function openTemplateBuilder(clusterId: string): void {
  useTemplateBuilder.getState().open(clusterId);
}
