/**
 * The step list of a task, driven by the core's progress events. Pure: the
 * manager journals what this returns before the step's API call goes out
 * (the core reports `started` just before sending it).
 */
import type { StepView } from '../../../../shared/channels/tasks';
import type { ProgressEvent } from '../../../core';
import type { TaskRecord } from './task-record';

export function freshSteps(names: readonly string[]): StepView[] {
  return names.map((name) => ({ name, state: 'pending' }));
}

const finished = (s: StepView) => s.state === 'done' || s.state === 'skipped';

/** The fields of the task that change with this event. */
export function applyProgress(
  task: Pick<TaskRecord, 'steps' | 'upids'>,
  e: ProgressEvent,
): Pick<TaskRecord, 'steps' | 'upids' | 'progress'> & { node?: string; vmid?: number } {
  const steps = task.steps.map((s) => ({ ...s }));
  let upids = task.upids;
  const step = steps.find((s) => s.name === e.step);
  if (step) {
    if (e.phase === 'started') step.state = 'running';
    else if (e.phase === 'done') step.state = 'done';
    else if (e.phase === 'skipped') step.state = 'skipped';
    if (e.node) step.node = e.node;
    if (e.upid) {
      step.upid = e.upid;
      upids = [...upids, { upid: e.upid, node: e.node ?? '', step: e.step }];
    }
  }
  const out: ReturnType<typeof applyProgress> = { steps, upids, progress: steps.filter(finished).length / Math.max(1, steps.length) };
  if (e.node) out.node = e.node;
  if (e.vmid !== undefined) out.vmid = e.vmid;
  return out;
}

/** When a task ends badly, the step it was on is the one that failed. */
export function failRunningStep(steps: StepView[]): StepView[] {
  return steps.map((s) => (s.state === 'running' ? { ...s, state: 'failed' } : s));
}

/** The Proxmox task the current step waits on, if any: a cancel leaves it running on its node. */
export function runningUpid(steps: StepView[]): { upid: string; node?: string } | undefined {
  const s = steps.find((x) => x.state === 'running' && x.upid);
  return s?.upid ? { upid: s.upid, ...(s.node ? { node: s.node } : {}) } : undefined;
}
