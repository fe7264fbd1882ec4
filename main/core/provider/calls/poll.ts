/**
 * Adaptive polling: about four checks a second while the wait is young, one a
 * second once it has run `youngForMs`. Proxmox tasks mostly finish within a
 * few seconds, so a fixed one-second poll wastes half a second per task on
 * average; polling fast for the whole wait would hammer the node.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Budgets } from '../rules/budgets';
import { ProviderError, transient } from '../rules/errors';

export type PollSchedule = Pick<Budgets, 'youngPollMs' | 'youngForMs' | 'oldPollMs'>;

/** The pause before the next check, given how long the wait has run. */
export function pollDelay(elapsedMs: number, schedule: PollSchedule): number {
  return elapsedMs < schedule.youngForMs ? schedule.youngPollMs : schedule.oldPollMs;
}

export interface PollOptions {
  schedule: PollSchedule;
  budgetMs: number;
  /** Named in the error when the budget runs out or the wait is cancelled. */
  what: string;
  signal?: AbortSignal | undefined;
}

/**
 * Calls `check` until it returns a value other than undefined. Gives up with
 * a transient error when the budget runs out or the signal fires; the
 * backend keeps working and the next attempt picks the result up.
 */
export async function pollUntil<T>(options: PollOptions, check: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    throwIfCancelled(options);
    const result = await check();
    if (result !== undefined) return result;
    const elapsed = Date.now() - started;
    if (elapsed >= options.budgetMs) throw transient(`waiting for ${options.what}: not done after ${Math.round(elapsed / 1000)} s`);
    const delay = Math.min(pollDelay(elapsed, options.schedule), options.budgetMs - elapsed);
    try {
      await sleep(delay, undefined, { signal: options.signal });
    } catch {
      throwIfCancelled(options);
    }
  }
}

export function throwIfCancelled(options: { what: string; signal?: AbortSignal | undefined }): void {
  if (options.signal?.aborted) throw cancelled(options.what);
}

export function cancelled(what: string): ProviderError {
  return transient(`cancelled while waiting for ${what}`, 'The operation was cancelled; run it again to finish it.');
}
