/**
 * The queue: each task waits for its slots (global, and its node's:
 * slots.ts), then its kind's runner runs it with a cancel signal. A failure
 * ends the task with the error's class, hint and where to fix it; a cancel
 * has already told its own story. wait() follows a task (or a bulk
 * parent's children) to its end.
 */
import { internalErrorValue, toAppErrorValue } from '../../../errors/app-error';
import type { ManagerParts } from '../manager-parts';
import type { Notifier } from '../../../ports/notifier';
import { fixAtOf, leftBehindOf, settleSteps } from '../records/offers';
import type { RunContext } from '../runners/run-context';
import type { Slots } from './slots';
import type { KindSpec } from '../runners/task-kinds';
import type { TaskRecord } from '../records/task-record';
import { toView } from '../records/task-view';
import type { TaskKind, TaskView } from '../../../../shared/channels/tasks';

export interface TaskQueueOptions {
  parts: ManagerParts;
  kinds: Record<TaskKind, KindSpec>;
  slots: Slots;
  notifier: Notifier;
  contextFor(task: TaskRecord, signal: AbortSignal): RunContext;
  /** How a run that returned ends: succeeded, or (a create) waiting for its address. */
  succeeded(id: string, message: string): void;
}

export function createTaskQueue(o: TaskQueueOptions) {
  const { parts, slots, notifier } = o;
  const { store, log } = parts;
  const controllers = new Map<string, AbortController>();
  const settled = new Map<string, Promise<void>>();
  /** A cancel under way (stopping the Proxmox task, then recording how it ended): wait() waits for it too. */
  const stopping = new Map<string, Promise<void>>();

  function schedule(id: string): void {
    const done = run(id).finally(() => settled.delete(id));
    settled.set(id, done);
  }

  async function run(id: string): Promise<void> {
    const controller = new AbortController();
    controllers.set(id, controller);
    const { signal } = controller;
    let task = parts.mustGet(id);
    let release: (() => void) | undefined;
    try {
      release = await slots.acquire(`${task.clusterId}/${task.node ?? ''}`, signal);
      task = store.update(id, { state: 'running', startedAt: parts.now().toISOString(), attempts: task.attempts + 1 });
      parts.afterChange(task);
      const message = await o.kinds[task.kind].run(o.contextFor(task, signal));
      if (!signal.aborted) o.succeeded(id, message);
    } catch (e) {
      if (signal.aborted) return; // cancel() has already told the story
      const error = toAppErrorValue(e) ?? internalErrorValue;
      if (!toAppErrorValue(e)) log.error('task failed unexpectedly', { id, error: e });
      const fixAt = fixAtOf(error);
      parts.finish(id, { state: 'failed', error, message: error.message, steps: settleSteps(parts.mustGet(id).steps, 'failed'), fixAt });
      const failed = parts.mustGet(id);
      if (failed.kind === 'create-proxy') {
        const left = leftBehindOf(failed);
        notifier.notify(`${failed.target}: create failed`, `${error.message}${left ? ` Left in Proxmox: ${left}.` : ''}`, {
          taskId: id,
          tone: 'bad',
        });
      }
    } finally {
      release?.();
      controllers.delete(id);
    }
  }

  return {
    schedule,
    submit(task: TaskRecord): void {
      store.put(task);
      schedule(task.id);
    },
    /** The running task's cancel signal, if it runs. */
    signalOf: (id: string): AbortSignal | undefined => controllers.get(id)?.signal,
    /** Stops the task's own work at once (its runner sees the signal). */
    abort: (id: string): void => controllers.get(id)?.abort(),
    /** A cancel's work: wait() ends with it, not when the aborted run returns while the Proxmox task is being stopped. */
    trackStopping(id: string, work: Promise<unknown>): void {
      const ended = work.then(
        () => undefined,
        () => undefined,
      );
      stopping.set(id, ended);
      void ended.finally(() => stopping.delete(id));
    },
    /** Resolves once the task (or every child of a bulk parent) has ended. */
    async wait(id: string): Promise<TaskView> {
      for (;;) {
        const pending =
          settled.get(id) ??
          stopping.get(id) ??
          [...settled.entries(), ...stopping.entries()].find(([k]) => store.get(k)?.parentId === id)?.[1];
        if (!pending) return toView(parts.mustGet(id));
        await pending;
      }
    },
    /** Stops every running task's waiting; the journal keeps them for the next start, which lists them as interrupted. */
    async close(): Promise<void> {
      for (const c of controllers.values()) c.abort();
      await Promise.allSettled([...settled.values()]);
    },
  };
}
