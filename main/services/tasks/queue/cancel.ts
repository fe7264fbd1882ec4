/**
 * Cancel stops Egress Desk's own work at once, and the Proxmox task the
 * current step waits on where the API allows it: `DELETE
 * /nodes/{node}/tasks/{upid}` (the task's owner may; anyone else needs
 * Sys.Modify on the node). Proxmox's worker then ends with "received
 * interrupt". The words say exactly what was stopped, and what is still in
 * Proxmox or still running there.
 */
import { parseUpid, type PveApi, taskSucceeded } from '../../../core';
import { toAppErrorValue } from '../../../errors/app-error';
import type { Logger } from '../../../log/logger';
import { isBulkParentKind } from '../../../../shared/channels/tasks';
import type { ManagerParts } from '../manager-parts';
import { leftBehindOf, settleSteps } from '../records/offers';
import { runningUpid } from '../records/steps';
import { finishedStates, type TaskRecord } from '../records/task-record';

export interface StopResult {
  upid: string;
  node: string;
  type: string;
  /** stopped: it ended after the signal; already-ended: nothing was running; refused: the DELETE failed; signalled: not ended yet. */
  outcome: 'stopped' | 'already-ended' | 'refused' | 'signalled';
  exitstatus?: string;
  why?: string;
}

export interface StopOptions {
  /** How long the DELETE, then reading how the task ended, may take together (default 5 s). */
  budgetMs?: number;
  pollMs?: number;
  log?: Logger;
}

/** Sends the stop, then reads the task's status until it has ended (or the budget runs out). */
export async function stopProxmoxTask(api: PveApi, upid: string, o: StopOptions = {}): Promise<StopResult> {
  const { node, type } = parseUpid(upid);
  const base = { upid, node, type };
  const deadline = Date.now() + (o.budgetMs ?? 5000);
  const signal = () => AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  try {
    await api.stopTask(node, upid, { signal: signal() });
  } catch (e) {
    const why = toAppErrorValue(e)?.message ?? (e instanceof Error ? e.message : String(e));
    o.log?.warn('cancel: Proxmox did not stop the task', { upid, why });
    return { ...base, outcome: 'refused', why };
  }
  while (Date.now() < deadline) {
    try {
      const status = await api.taskStatus(node, upid, { signal: signal(), loop: true });
      if (status.status === 'stopped') {
        const exitstatus = status.exitstatus ?? '';
        return { ...base, outcome: taskSucceeded(exitstatus) ? 'already-ended' : 'stopped', exitstatus };
      }
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, o.pollMs ?? 100));
  }
  return { ...base, outcome: 'signalled' };
}

/** What a cancel did and left, in words. `leftBehind` is what the cancelled create left in Proxmox, if anything. */
export function describeCancellation(task: Pick<TaskRecord, 'state' | 'kind'>, stop: StopResult | undefined, leftBehind: string | undefined): string {
  if (task.state === 'queued') return 'Cancelled before it started: nothing was sent to Proxmox.';
  const parts: string[] = [];
  if (!stop) {
    parts.push(
      'Cancelled: Egress Desk sends nothing more. No Proxmox task was running for this step; a request already sent may still complete on the node.',
    );
  } else {
    const what = `the Proxmox task ${stop.type} on node ${stop.node}`;
    if (stop.outcome === 'stopped') parts.push(`Cancelled. Stopped ${what}: it ended with “${stop.exitstatus}”.`);
    else if (stop.outcome === 'already-ended')
      parts.push(`Cancelled. ${cap(what)} had already finished (${stop.exitstatus}), so there was nothing to stop.`);
    else if (stop.outcome === 'refused')
      parts.push(
        `Cancelled: Egress Desk stopped waiting, but Proxmox refused to stop ${what} (${stop.why}): it keeps running there until it ends (${stop.upid}).`,
      );
    else parts.push(`Cancelled. Egress Desk asked Proxmox to stop ${what}; it had not ended yet when last read, and may still finish (${stop.upid}).`);
  }
  if (task.kind === 'create-proxy') {
    parts.push(
      leftBehind
        ? `Still in Proxmox: ${leftBehind}. Clean up deletes it; Retry makes the proxy again with the same UID.`
        : 'Nothing of this proxy is left in Proxmox. Retry makes it again with the same UID.',
    );
  } else if (task.kind === 'delete-proxy' || task.kind === 'clean-up') {
    parts.push('Retry runs the delete again; it deletes only what still carries the mark.');
  }
  return parts.join(' ');
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface CancellerOptions {
  parts: ManagerParts;
  /** The running task's own work: stopped at once. */
  abort(id: string): void;
  /** A cancel's work, so wait() ends with it. */
  trackStopping(id: string, work: Promise<unknown>): void;
  /** How long stopping the Proxmox task and reading how it ended may take (default 5 s). */
  stopBudgetMs?: number | undefined;
}

/**
 * The tasks.cancel channel: stops the task's own work at once, and the Proxmox task its step waits on (DELETE on
 * the task, within a few seconds); answers what was stopped and what is left in Proxmox or still runs there. A bulk
 * parent cancels each child still open.
 */
export function createCanceller({ parts, abort, trackStopping, stopBudgetMs }: CancellerOptions) {
  const cancelling = new Set<string>();

  async function cancel(id: string): Promise<{ message: string }> {
    const task = parts.mustGet(id);
    if (isBulkParentKind(task.kind)) {
      const open = parts.store.children(id).filter((c) => !finishedStates.has(c.state));
      const messages = await Promise.all(open.map(async (c) => `${c.target}: ${(await cancel(c.id)).message}`));
      return { message: messages.length > 0 ? messages.join('\n') : 'Nothing to cancel: every proxy of this request has finished.' };
    }
    if (finishedStates.has(task.state))
      return { message: `Nothing to cancel: the task has already ${task.state === 'succeeded' ? 'succeeded' : 'ended'}.` };
    if (cancelling.has(id)) return { message: 'Already cancelling: Egress Desk is stopping the Proxmox task.' };
    cancelling.add(id);
    const work = (async () => {
      try {
        const running = task.state === 'running' ? runningUpid(task.steps) : undefined;
        abort(id);
        const stop = running
          ? await stopProxmoxTask(parts.clusterOf(task).api, running.upid, { budgetMs: stopBudgetMs ?? 5000, log: parts.log })
          : undefined;
        const steps = settleSteps(parts.mustGet(id).steps, 'cancelled');
        const left = leftBehindOf({ ...parts.mustGet(id), state: 'cancelled', steps });
        const message = describeCancellation(task, stop, left);
        parts.finish(id, { state: 'cancelled', message, steps });
        return { message };
      } finally {
        cancelling.delete(id);
      }
    })();
    trackStopping(id, work);
    return work;
  }

  return cancel;
}
