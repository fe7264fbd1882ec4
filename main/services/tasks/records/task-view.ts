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
  return untilUsable(task, { ...rest, ...outcomeOf(task), actions: actionsOf(task) });
}

/**
 * A create is done when the proxy is usable, not when Proxmox's part is (issue 23): while its address is awaited
 * the view says running, with no end, so its duration runs on and the status bar counts it; once the address came
 * (or the wait gave up) it ended then. The record keeps Proxmox's outcome (`succeeded`): a restart resumes the wait.
 */
function untilUsable(task: TaskRecord, view: TaskView): TaskView {
  if (task.kind !== 'create-proxy' || task.state !== 'succeeded' || !task.address) return view;
  if (task.address.state === 'waiting') {
    const { endedAt: _notYet, ...running } = view;
    return { ...running, state: 'running', progress: Math.min(view.progress, ADDRESS_WAIT_PROGRESS) };
  }
  return task.address.at ? { ...view, endedAt: task.address.at } : view;
}

/** Where a create's bar stands while only the address is awaited: Proxmox's steps are done, the last is not. */
const ADDRESS_WAIT_PROGRESS = 0.95;
