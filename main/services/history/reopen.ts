/**
 * A file another program held locked through the tries at start (open-file.ts
 * `locked`) is tried again in the background, without waiting on its lock,
 * after intervalMs and then at doubling intervals up to a minute, for forMs in
 * all. A try that finds the file free hands it to `adopt` (session-move.ts
 * moves the session in); one that fails for another reason than the lock, or
 * running out of time, gives up: the session stays in memory until restart.
 */
import type { Logger } from '../../log/logger';
import { closeQuietly, describe, isLocked, reopenHistoryFile } from './open-file';
import type { DatabaseSync } from './sqlite-module';

const MINUTE_MS = 60_000;

export interface ReopenOptions {
  file: string;
  /** The first wait; default 1000 ms. */
  intervalMs?: number;
  /** How long the tries go on; default 30 minutes. */
  forMs?: number;
  logger: Logger;
  /** Moves the session into the opened file and works on it from then on; throws (nothing changed) when it cannot. */
  adopt(file: DatabaseSync, tries: number): void;
  /** The database the session is on now. */
  current(): DatabaseSync;
  /** The tries ended without the file: why, in words (for status().degraded). */
  gaveUp(degraded: string): void;
}

export interface Reopener {
  /** Tries the file once now (the last try at close); answers whether the session is on it. */
  tryNow(): boolean;
  /** Stops the background tries. */
  stop(): void;
}

export function startReopening(options: ReopenOptions): Reopener {
  const { file, logger } = options;
  const intervalMs = Math.max(1, options.intervalMs ?? 1000);
  const forMs = options.forMs ?? 30 * MINUTE_MS;
  let waiting = true;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tries = 0;
  let waitedMs = 0;

  function giveUp(degraded: string, error?: unknown): void {
    waiting = false;
    options.gaveUp(degraded);
    logger.warn('history database is not tried again; history is kept in memory until restart', {
      reason: degraded,
      ...(error ? { error: describe(error) } : {}),
    });
  }

  function tryNow(): boolean {
    tries++;
    let db: DatabaseSync | undefined;
    try {
      db = reopenHistoryFile(file);
      options.adopt(db, tries);
      waiting = false;
      return true;
    } catch (error) {
      if (db && db !== options.current()) closeQuietly(db);
      if (!isLocked(error)) giveUp(`${file} could not be opened once it was free: ${describe(error)}`, error);
      return false;
    }
  }

  function schedule(): void {
    if (!waiting || stopped) return;
    const delay = Math.min(intervalMs * 2 ** Math.min(tries, 16), MINUTE_MS);
    if (waitedMs + delay > forMs) {
      giveUp(`${file} stayed locked by another program for ${Math.round(waitedMs / 1000)} s after the start`);
      return;
    }
    waitedMs += delay;
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped && !tryNow()) schedule();
    }, delay);
    timer.unref();
  }
  schedule();

  return {
    tryNow,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
