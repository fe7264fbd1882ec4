/** The words and states a task ends with: what a cancel leaves running, and a bulk request's overall state. */
import { parseUpid } from '../../core/pve/upid';
import { runningUpid } from './steps';
import { finishedStates, type TaskRecord } from './task-record';

/** A cancel stops our waiting at once; Proxmox has no cancel for a task already started, so say so. */
export function describeCancel(task: TaskRecord): string {
  if (task.state === 'queued') return 'Cancelled before it started: nothing was sent to Proxmox.';
  const running = runningUpid(task.steps);
  const rerun = task.kind === 'create-proxy' ? ' Retry finishes it with the same proxy UID; Clean up deletes what it left.' : '';
  if (running) {
    const { type, node } = parseUpid(running.upid);
    return `Cancelled: Egress Desk stopped waiting. The Proxmox task ${type} already started on node ${node} keeps running there until it ends (${running.upid}).${rerun}`;
  }
  return `Cancelled: Egress Desk stopped waiting and sends nothing more. A request already sent to Proxmox may still complete on the node.${rerun}`;
}

/** A bulk request's state and progress, from its children. */
export function parentOutcome(children: TaskRecord[]): Pick<TaskRecord, 'state' | 'progress' | 'message'> {
  const progress = children.reduce((n, c) => n + (c.state === 'succeeded' ? 1 : c.progress), 0) / Math.max(1, children.length);
  const count = (s: TaskRecord['state']) => children.filter((c) => c.state === s).length;
  if (children.some((c) => !finishedStates.has(c.state))) {
    return { state: count('running') > 0 ? 'running' : 'queued', progress, message: `${count('succeeded')} of ${children.length} done` };
  }
  const parts = (['succeeded', 'failed', 'cancelled', 'interrupted'] as const).filter((s) => count(s) > 0).map((s) => `${count(s)} ${s}`);
  const state =
    count('succeeded') === children.length
      ? 'succeeded'
      : count('interrupted') > 0
        ? 'interrupted'
        : count('failed') > 0
          ? 'failed'
          : 'cancelled';
  return { state, progress, message: parts.join(', ') };
}
