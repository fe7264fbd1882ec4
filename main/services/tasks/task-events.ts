/**
 * What follows every change of a task: its bulk parent's state and summary
 * follow its children; a long top-level task's end becomes a notification;
 * the taskbar shows the progress of the work still under way; and a task
 * that changed a cluster asks the inventory to refresh.
 */
import { isBulkParentKind } from '../../../shared/channels/tasks';
import type { Notifier } from '../../ports/notifier';
import { parentOutcome } from './records/outcomes';
import { finishedStates, type TaskRecord } from './records/task-record';
import type { TaskStore } from './records/task-store';

export interface TaskEventsOptions {
  store: TaskStore;
  notifier: Notifier;
  now(): Date;
  /** Only work that ran at least this long ends with a notification. */
  notifyAfterMs: number;
  onOperationFinished?: ((clusterId: string) => void) | undefined;
}

export function createTaskEvents(o: TaskEventsOptions) {
  const { store, notifier } = o;
  let showingProgress = false;

  function afterChange(task: TaskRecord): void {
    if (task.parentId) {
      const parent = store.get(task.parentId);
      if (parent) {
        const outcome = parentOutcome(store.children(task.parentId));
        const endedAt = finishedStates.has(outcome.state) ? (parent.endedAt ?? o.now().toISOString()) : undefined;
        afterChange(store.update(parent.id, { ...outcome, endedAt }));
      }
      return;
    }
    // A create's failure and its address are told whatever the length (task-queue.ts and address-step.ts).
    const toldElsewhere = task.kind === 'create-proxy' && (task.state === 'failed' || task.address !== undefined);
    if (!toldElsewhere && finishedStates.has(task.state) && task.endedAt && task.startedAt) {
      const took = Date.parse(task.endedAt) - Date.parse(task.startedAt);
      if (took >= o.notifyAfterMs) notifier.notify(`${task.target}: ${task.state}`, task.message ?? '');
    }
    const active = store.all().filter((t) => !t.parentId && !finishedStates.has(t.state));
    if (active.length > 0) {
      showingProgress = true;
      notifier.progress(active.reduce((n, t) => n + t.progress, 0) / active.length);
    } else if (showingProgress) {
      showingProgress = false;
      notifier.progress(null);
    }
  }

  function finish(id: string, fields: Partial<TaskRecord>): void {
    const task = store.update(id, { ...fields, endedAt: o.now().toISOString() });
    afterChange(task);
    if (task.kind !== 'doctor' && !isBulkParentKind(task.kind)) o.onOperationFinished?.(task.clusterId);
    store.prune();
  }

  return { afterChange, finish };
}
