/**
 * Waiting on Proxmox: a task until it stops (task-watcher.ts), a VM's lock
 * until it clears, a started VM until QEMU runs the guest (poll.ts). All
 * honour the signal. The lock and running waits look at once and are
 * normally done at that first look: Proxmox clears a clone's lock inside the
 * clone task, and QEMU runs the guest when the start task ends.
 */
import { TaskFailedError } from '../../pve/errors';
import { parseUpid, taskSucceeded } from '../../pve/upid';
import { TASK_LOG_TAIL, taskFailureReason } from '../../pve/task-reasons';
import type { CoreContext, VmConfig } from './context';
import { transient } from '../rules/errors';
import { pollUntil } from './poll';
import { taskWatcherFor, type Companion, type WatchSchedule } from './task-watcher';
import type { PveApi } from '../../pve/api';
import type { Logger } from '../../../log/logger';

/** What a wait for a task needs: the client, a logger, and the schedule its looks start from without history. */
export interface TaskContext {
  api: PveApi;
  log: Logger;
  budgets: WatchSchedule;
}

/**
 * The one wait for a Proxmox task, the provider's, the template build's and the services' alike: through the
 * client's task watcher (one listing per node per cycle for every task waited on there, looks timed by the
 * learned durations); a failed task carries its exit status and the reason its log gives, transient unless that reason is known to need a change (task-reasons.ts).
 */
export async function waitTask(ctx: TaskContext, upid: string, budgetMs: number, signal?: AbortSignal, beside?: Companion): Promise<void> {
  const watch = { schedule: ctx.budgets, budgetMs, what: `task ${upid}`, signal, beside };
  const exitstatus = await taskWatcherFor(ctx.api, ctx.log).wait(upid, watch);
  if (!taskSucceeded(exitstatus)) {
    const reason = await failureReason(ctx, upid, exitstatus, signal);
    ctx.log.info('proxmox task failed', { upid, exitstatus, ...(reason ? { reason } : {}) });
    throw new TaskFailedError(upid, exitstatus, reason);
  }
  if (exitstatus !== 'OK') ctx.log.info('proxmox task finished with warnings', { upid, exitstatus });
}

/**
 * Issue 25: the reason a failed task's log tail gives (task-reasons.ts), e.g. a migrate whose exit status is only
 * `migration aborted`. One read of the last lines (a second when the log is longer: its `total` says where the tail
 * starts); a log that cannot be read leaves the exit status alone.
 */
async function failureReason(ctx: TaskContext, upid: string, exitstatus: string, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const { node } = parseUpid(upid);
    let page = await ctx.api.taskLog(node, upid, { start: 0, limit: TASK_LOG_TAIL }, { signal });
    if (page.total > TASK_LOG_TAIL)
      page = await ctx.api.taskLog(node, upid, { start: page.total - TASK_LOG_TAIL, limit: TASK_LOG_TAIL }, { signal });
    return taskFailureReason(
      page.lines.map((l) => l.t),
      exitstatus,
    );
  } catch (e) {
    if (signal?.aborted) throw e;
    ctx.log.debug('proxmox task log unreadable after its failure', { upid });
    return undefined;
  }
}

/** `suspended` marks a hibernated VM: not a task, and it never clears by itself. */
export const LOCK_SUSPENDED = 'suspended';

/**
 * Polls a VM's config until no task holds its lock, for the ownership check.
 * A suspended lock returns at once. A VM that vanishes (a failed clone)
 * surfaces as the API's error for the caller to judge.
 */
export function waitUnlocked(ctx: CoreContext, node: string, vmid: number, signal?: AbortSignal): Promise<VmConfig> {
  return pollUntil({ schedule: ctx.budgets, budgetMs: ctx.budgets.cloneMs, what: `the lock on VM ${vmid} to clear`, signal }, async () => {
    const config = await ctx.api.vmConfig(node, vmid, { signal, loop: true });
    return !config.lock || config.lock === LOCK_SUSPENDED ? config : undefined;
  });
}

/** After the start task: status/current until running/running. A VM that stops again will not come up by itself. */
export async function waitRunning(ctx: CoreContext, node: string, vmid: number, signal?: AbortSignal): Promise<void> {
  await pollUntil({ schedule: ctx.budgets, budgetMs: ctx.budgets.runningMs, what: `VM ${vmid} to run`, signal }, async () => {
    const status = await ctx.api.vmStatus(node, vmid, { signal, loop: true });
    if (status.status === 'stopped') throw transient(`VM ${vmid} stopped right after its start`);
    return status.status === 'running' && status.qmpstatus === 'running' ? true : undefined;
  });
}
