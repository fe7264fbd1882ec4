/**
 * The task step: how every step that has Proxmox do its work by a task runs,
 * for the provider's operations and the template build alike.
 *
 *   started → (a copy slot, for a disk copy) → submit → `task` with the UPID
 *   → the wait, through the node's task watcher (tasks.ts waitTask) → done
 *
 * `started` goes out before the request and `task` before the wait, so the
 * task manager journals both first: a step it could not record is never
 * taken, a cancel stops the Proxmox task it knows, a resume waits for it.
 * A step whose checks come before its request reports `started` itself, and
 * one with more to do after its task (a read-back, a second task) reports
 * `done` itself: `started: false`, `done: false`.
 */
import { TaskFailedError } from '../../pve/errors';
import { cancelled } from './poll';
import type { ProgressEvent, StepContext, StepReporter } from './progress';
import type { Companion } from './task-watcher';
import { waitTask, type TaskContext } from './tasks';

export type { TaskContext } from './tasks';

/** A disk copy's turn on its storage (CoreContext.cloneGate), held from the submit until the task ends. */
export interface CopySlot {
  take: () => Promise<(() => void) | undefined> | undefined;
  /** Named when the step is cancelled while it waited for the slot: then nothing is sent. */
  what: string;
  /** Called once the slot is not free at once, so the wait is used (create's seed upload beside its clone). */
  whileWaiting?: () => void;
}

export interface TaskStep<Step extends string> {
  step: Step;
  /** What every event of the step names (the node the proxy is for, the VM, a volume); the UPID names where the task runs. */
  at: StepContext;
  /** Sends the request; resolves to its UPID, or null when Proxmox did the work before it answered (7.4's resize). */
  submit: () => Promise<string | null>;
  budgetMs: number;
  signal?: AbortSignal | undefined;
  /** More fields for `started` (the build's `fresh`), or false when the caller reported it. */
  started?: Omit<StepContext, 'upid'> | false;
  /** More fields for `done` (the build's `note`), or false when the caller reports it. */
  done?: Omit<StepContext, 'upid'> | false;
  slot?: CopySlot;
  /** Given the task's UPID once its POST answered, for a wait that goes beside it (`beside`). */
  companion?: Companion;
  /** The task whose end this one's is needed with: looked at with its looks while it runs (task-watcher.ts Companion). */
  beside?: Companion;
  /** A refused submit that means the work is done already: delete's stop or destroy of a VM that is gone. */
  doneAlready?: (e: unknown) => boolean;
  /** A failed task whose work is done anyway: create's start, when an earlier attempt's start won and the VM runs. */
  doneAnyway?: (e: TaskFailedError) => Promise<boolean>;
}

/** How the step's task ended: `ok`, or how it got by without one that ended OK. */
export type TaskStepEnd = 'ok' | 'no task' | 'done already' | 'done anyway';

export async function runTaskStep<Step extends string>(
  ctx: TaskContext,
  report: StepReporter<Step>,
  s: TaskStep<Step>,
): Promise<TaskStepEnd> {
  const phase = (p: ProgressEvent['phase'], more: StepContext = {}) => report(s.step, p, { ...s.at, ...more });
  if (s.started !== false) phase('started', s.started);
  const end = await inSlot(s, async () => {
    let upid: string | null;
    try {
      upid = await s.submit();
    } catch (e) {
      if (s.doneAlready?.(e)) return 'done already';
      throw e;
    }
    if (upid === null) return 'no task';
    phase('task', { upid });
    if (s.companion) s.companion.upid = upid;
    try {
      await waitTask(ctx, upid, s.budgetMs, s.signal, s.beside);
      return 'ok';
    } catch (e) {
      if (e instanceof TaskFailedError && s.doneAnyway && (await s.doneAnyway(e))) return 'done anyway';
      throw e;
    }
  });
  if (s.done !== false) phase('done', s.done);
  return end;
}

/** Runs `work` holding the step's copy slot, if it has one; a step cancelled while it waited sends nothing. */
async function inSlot<T>(s: TaskStep<string>, work: () => Promise<T>): Promise<T> {
  if (!s.slot) return work();
  const taking = s.slot.take();
  // What waits for the slot starts once the submit is queued, or as soon as the slot is not there at once.
  const whileWaiting = taking && s.slot.whileWaiting ? setTimeout(s.slot.whileWaiting, 0) : undefined;
  let release: (() => void) | undefined;
  try {
    release = await taking;
  } finally {
    clearTimeout(whileWaiting);
  }
  try {
    // The slot may come long after the step began: a step cut off meanwhile sends nothing.
    if (s.signal?.aborted) throw cancelled(s.slot.what);
    return await work();
  } finally {
    release?.();
  }
}
