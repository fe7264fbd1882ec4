/**
 * The history's write path, apart from SQL: a guard that turns a failing
 * write (SQLITE_FULL, SQLITE_BUSY, the disk gone) into a logged-once state
 * instead of an exception, and the batch queue that records wait in until
 * one transaction writes them (batchSize records or flushIntervalMs,
 * whichever comes first). While writes fail the queue keeps its records for
 * a retry that backs off (doubling, up to a minute, so a locked or full disk
 * is not retried on every record, each retry possibly waiting out the busy
 * timeout), and is bounded: past maxPending the oldest records are dropped
 * and the log says how many.
 */
import type { Logger } from '../../log/logger';

const MAX_RETRY_MS = 60_000;

export interface WriteGuard {
  /** Runs a write; on failure logs once (until a write succeeds again) and answers false. Never throws. */
  run(what: string, write: () => void): boolean;
  readonly failing: boolean;
}

export function createWriteGuard(logger: Logger): WriteGuard {
  let failing = false;
  return {
    get failing() {
      return failing;
    },
    run(what, write) {
      try {
        write();
        if (failing) logger.info('history database writes work again');
        failing = false;
        return true;
      } catch (error) {
        if (!failing) {
          const code = (error as { errcode?: number }).errcode;
          logger.error('history database write failed; will retry', { what, reason: (error as Error).message, code });
        }
        failing = true;
        return false;
      }
    },
  };
}

export interface WriteQueueOptions<T> {
  batchSize: number;
  flushIntervalMs: number;
  maxPending: number;
  /** Writes one batch in one transaction; throws (rolled back) when the disk refuses it. */
  writeBatch(batch: readonly T[]): void;
  guard: WriteGuard;
  logger: Logger;
}

export interface WriteQueue<T> {
  push(item: T): void;
  /** Writes what is queued now; on failure keeps it and schedules a retry. */
  flush(): void;
  /** A read's flush: writes the queue so the read finds it in the file; while writes fail, leaves it to be merged. */
  flushForRead(): void;
  /** What is queued and not written yet, oldest first. */
  readonly pending: readonly T[];
  /** Stops the timer; later pushes are ignored. Flush first. */
  close(): void;
}

export function createWriteQueue<T>(options: WriteQueueOptions<T>): WriteQueue<T> {
  const { batchSize, flushIntervalMs, maxPending, guard, logger } = options;
  let pending: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  let failedFlushes = 0;
  let dropped = 0;
  let closed = false;

  function dropOldest(): void {
    if (pending.length <= maxPending) return;
    const excess = pending.length - maxPending;
    pending = pending.slice(excess);
    dropped += excess;
    logger.warn('history records dropped while the database cannot be written', { dropped: excess, droppedTotal: dropped });
  }

  function schedule(): void {
    if (timer || closed) return;
    const delay = guard.failing
      ? Math.max(flushIntervalMs, Math.min(flushIntervalMs * 2 ** Math.min(failedFlushes, 16), MAX_RETRY_MS))
      : flushIntervalMs;
    timer = setTimeout(flush, delay);
    timer.unref();
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    if (guard.run('batch', () => options.writeBatch(batch))) {
      pending = pending.slice(batch.length);
      failedFlushes = 0;
      return;
    }
    failedFlushes++;
    dropOldest();
    schedule();
  }

  return {
    get pending() {
      return pending;
    },
    push(item) {
      if (closed) return;
      pending.push(item);
      if (guard.failing) dropOldest();
      if (pending.length >= batchSize && !guard.failing) flush();
      else schedule();
    },
    flush,
    flushForRead() {
      if (!guard.failing) flush();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
