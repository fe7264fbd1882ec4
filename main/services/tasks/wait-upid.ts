/**
 * Waits for a Proxmox task the services started themselves (outside the provider), through the client's
 * task watcher (core/provider/task-watcher.ts): the node's one listing per cycle covers it along with every
 * other task waited on there, and the looks follow the learned durations.
 */
import { isBudgetExhausted, type PveApi, taskSucceeded, taskWatcherFor } from '../../core';
import { AppError } from '../../errors/app-error';

export async function waitUpid(api: PveApi, upid: string, signal: AbortSignal, pollMs = 250, budgetMs = 60_000): Promise<void> {
  let exitstatus: string;
  try {
    exitstatus = await taskWatcherFor(api).wait(upid, {
      budgetMs,
      what: `task ${upid}`,
      signal,
      schedule: { youngPollMs: pollMs, youngForMs: 5_000, oldPollMs: Math.max(pollMs, 1_000) },
    });
  } catch (e) {
    if (!isBudgetExhausted(e)) throw e;
    throw new AppError(
      'transient',
      `The Proxmox task ${upid} is still running after ${Math.round(budgetMs / 1000)} s.`,
      'Check the task in the Proxmox UI.',
    );
  }
  if (taskSucceeded(exitstatus)) return;
  throw new AppError('transient', `The Proxmox task ${upid} failed: ${exitstatus || 'no exit status'}.`, 'Open the task log on the node to see why.');
}
