/**
 * The retention job: checks, node health and resolved alerts older than the
 * retention (days, from Settings) are deleted in one transaction at open,
 * every hour after, and at once when the retention changes. An open alert is
 * never deleted, however old.
 */
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../../../shared/domain/profile';
import type { Logger } from '../../log/logger';
import type { HistoryConnection } from './connection';
import type { WriteGuard } from './write-queue';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface Retention {
  readonly days: number;
  /** Deletes what is older than the retention; returns the rows removed (0 when the disk refused). Never throws. */
  apply(nowMs: number): number;
  /** A new retention (whole days, at least 1) is applied at once; anything else is ignored. */
  setDays(days: number, nowMs: number): void;
  stop(): void;
}

export interface RetentionOptions {
  days?: number;
  /** How often the job runs after the one at start; default one hour. */
  intervalMs?: number;
  /** The database the session is on now. */
  current(): HistoryConnection;
  /** Writes the queued records first, so the cut applies to them too. */
  flush(): void;
  guard: WriteGuard;
  logger: Logger;
  now(): number;
}

/** Deletes the rows older than `cut` in one transaction; returns how many. Throws (rolled back) when the disk refuses. */
function deleteOlderThan(connection: HistoryConnection, cut: number): number {
  const { sql } = connection;
  let removed = 0;
  connection.transaction(() => {
    for (const { id } of sql.allProxies.all() as Array<{ id: number }>)
      removed += Number(sql.deleteChecks.run(id, cut).changes) + Number(sql.deleteTargetChecks.run(id, cut).changes);
    for (const { id } of sql.allNodes.all() as Array<{ id: number }>) removed += Number(sql.deleteNodeHealth.run(id, cut).changes);
    removed += Number(sql.deleteResolvedAlerts.run(cut).changes);
  });
  return removed;
}

/** Applies the retention now, then every intervalMs until stop(). */
export function startRetention(options: RetentionOptions): Retention {
  const { guard, logger } = options;
  let days = options.days ?? DEFAULT_HISTORY_RETENTION_DAYS;

  function apply(nowMs: number): number {
    options.flush();
    let removed = 0;
    guard.run('retention', () => {
      removed = deleteOlderThan(options.current(), nowMs - days * DAY_MS);
    });
    if (removed > 0) logger.info('history retention removed old rows', { removed, retentionDays: days });
    return removed;
  }

  apply(options.now());
  const timer = setInterval(() => apply(options.now()), options.intervalMs ?? HOUR_MS);
  timer.unref();

  return {
    get days() {
      return days;
    },
    apply,
    setDays(next, nowMs) {
      if (!Number.isFinite(next) || next < 1 || Math.floor(next) === days) return;
      days = Math.floor(next);
      apply(nowMs);
    },
    stop: () => clearInterval(timer),
  };
}
