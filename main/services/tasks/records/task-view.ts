/**
 * The renderer's view of a task record: what it shows, and the actions that can help (offers.ts decides
 * which). Apart from task-record.ts so the record's types import nothing that imports them back.
 */
import { isBulkParentKind, type TaskView } from '../../../../shared/channels/tasks';
import { leftBehindOf, outcomeOf, powerOffersOf, retryHelps } from './offers';
import type { TaskRecord } from './task-record';

/**
 * Only what can help: Resume for a task cut off by a crash; Retry after a transient failure or a cancel (a permanent
 * failure fails the same way again: its fix is in words and `fixAt`); Clean up only when the create left something.
 */
function actionsOf(task: TaskRecord): TaskView['actions'] {
  if (task.state === 'queued' || task.state === 'running') return ['cancel'];
  if (task.closedBy !== undefined || isBulkParentKind(task.kind) || task.state === 'succeeded') return [];
  const actions: TaskView['actions'] = [];
  if (task.state === 'interrupted') actions.push('resume');
  else if (retryHelps(task)) actions.push('retry');
  if ((task.kind === 'create-proxy' || task.kind === 'build-template') && leftBehindOf(task) !== undefined) actions.push('clean-up');
  actions.push(...powerOffersOf(task));
  return actions;
}

/** The renderer's view: everything but the request (which holds the sealed cloud-init), with what the task offers. */
export function toView(task: TaskRecord): TaskView {
  const { input: _input, leftBehind: _stored, ...rest } = task;
  return { ...rest, ...outcomeOf(task), actions: actionsOf(task) };
}
