/**
 * The history store (types.ts HistoryStore) over SQLite: checks, node health
 * and alerts in history.sqlite in the app's data folder (schema.ts), opened
 * so that a bad file never crashes the app (open-file.ts). This file joins
 * the parts; each has its own module:
 *
 * - write-queue.ts: checks and node health are queued in memory and written
 *   in one transaction per batch (batchSize records or flushIntervalMs,
 *   whichever comes first), so a crash loses at most the last batch. A write
 *   failing at runtime (SQLITE_FULL, the disk gone) is logged once, keeps the
 *   queue for a later retry (bounded: the oldest are dropped past maxPending)
 *   and never throws to the caller.
 * - record-reads.ts: reads flush first, and merge what is still queued when
 *   the disk refuses the write, so a caller always reads its own writes.
 * - alert-store.ts: alerts are written at once (their state must be exact).
 * - retention.ts: the retention job. connection.ts, statements.ts, rows.ts:
 *   one database's statements, id caches and row shapes.
 * - reopen.ts, session-move.ts: a file another program holds locked at start
 *   is tried again in the background; the session meanwhile runs in an
 *   in-memory database, and once the file opens every row of the session
 *   moves into it in one transaction (alert ids kept), so a restart finds
 *   everything recorded. status() says which it is.
 */
import { statSync } from 'node:fs';
import type { Logger } from '../../log/logger';
import { alertStore } from './alert-store';
import { historyConnection, type HistoryConnection, type PendingRecord } from './connection';
import { createGuardedRead } from './guarded-read';
import { memoryHistoryStore } from './memory-store';
import { openHistoryFile, type OpenedHistoryFile } from './open-file';
import { recordReads } from './record-reads';
import { startReopening, type Reopener } from './reopen';
import { startRetention } from './retention';
import { SCHEMA_VERSION } from './schema';
import { moveSession, sessionAlertIdFloor } from './session-move';
import type { DatabaseSync } from './sqlite-module';
import type { HistoryDatabase, HistoryStatus } from './types';
import { createWriteGuard, createWriteQueue } from './write-queue';

// The interface lives beside the port (types.ts), where memory-store.ts takes it without importing this file.
export type { HistoryDatabase } from './types';

export interface HistoryDatabaseOptions {
  /** Absolute path of history.sqlite, or ':memory:'. */
  file: string;
  /** Days of checks, node health and resolved alerts kept; default 30. */
  retentionDays?: number;
  /** Records per write transaction; default 200. */
  batchSize?: number;
  /** Longest a record waits in memory before it is written; default 2000 ms. */
  flushIntervalMs?: number;
  /** How often the retention job runs after the one at open; default one hour. */
  retentionIntervalMs?: number;
  /** Records kept for retry while writes fail; the oldest are dropped past it. Default 20 × batchSize. */
  maxPending?: number;
  /** A file locked at start is tried again after this, then at doubling intervals up to a minute; default 1000 ms. */
  reopenIntervalMs?: number;
  /** How long those tries go on before the session stays in memory until restart; default 30 minutes. */
  reopenForMs?: number;
  logger: Logger;
  now?: () => number;
}

/** Opens the file, or a session in memory that says why (status().degraded). Never throws. */
function openLogged(options: HistoryDatabaseOptions, now: number): OpenedHistoryFile | { unavailable: string } {
  const { logger } = options;
  let opened: OpenedHistoryFile;
  try {
    opened = openHistoryFile(options.file, now);
  } catch (error) {
    // Only a runtime without node:sqlite gets here: open-file.ts turns every file problem into a status.
    const degraded = `the history database is not available (${(error as Error).message})`;
    logger.warn('history is kept in memory until restart', { reason: degraded });
    return { unavailable: degraded };
  }
  if (opened.movedAside) {
    logger.warn('history database was unusable and was moved aside; a fresh one was created', {
      movedTo: opened.movedAside.path,
      reason: opened.movedAside.reason,
    });
  }
  if (opened.degraded)
    logger.warn(
      opened.locked
        ? 'history database is locked by another program; history is kept in memory and moved into the file once it is free'
        : 'history database could not be opened; history is kept in memory until restart',
      { reason: opened.degraded },
    );
  return opened;
}

export function openHistoryDatabase(options: HistoryDatabaseOptions): HistoryDatabase {
  const now = options.now ?? Date.now;
  const { logger, file } = options;
  const batchSize = Math.max(1, options.batchSize ?? 200);
  const result = openLogged(options, now());
  if ('unavailable' in result) return memoryHistoryStore(result.unavailable, { retentionDays: options.retentionDays, now });
  let opened = result;
  let connection: HistoryConnection = historyConnection(opened.db);
  let alertIdFloor = opened.onDisk ? 0 : sessionAlertIdFloor(now());
  const current = () => connection;

  const guard = createWriteGuard(logger);
  const guardedRead = createGuardedRead(logger);
  const queue = createWriteQueue<PendingRecord>({
    batchSize,
    flushIntervalMs: options.flushIntervalMs ?? 2000,
    maxPending: Math.max(batchSize, options.maxPending ?? batchSize * 20),
    guard,
    logger,
    writeBatch: (batch) => connection.transaction(() => batch.forEach((item) => connection.write(item))),
  });
  const alerts = alertStore({ current, idFloor: () => alertIdFloor, guard, guardedRead });
  const retention = startRetention({
    days: options.retentionDays,
    intervalMs: options.retentionIntervalMs,
    current,
    flush: queue.flush,
    guard,
    logger,
    now,
  });

  /** The file, free at last: the session's rows move into it, then the store works on it. */
  function adopt(db: DatabaseSync, tries: number): void {
    queue.flush(); // into the memory database: it never refuses
    const into = historyConnection(db);
    const moved = moveSession(connection, into);
    alerts.renumbered(moved.renumbered);
    const memory = connection;
    connection = into;
    memory.db.close();
    alertIdFloor = 0;
    opened = { db, onDisk: true, ...(opened.movedAside ? { movedAside: opened.movedAside } : {}) };
    logger.info("history database is free again; this session's history was moved into it", {
      checks: moved.checks,
      nodeHealth: moved.nodeHealth,
      alerts: moved.alerts,
      tries,
    });
    retention.apply(now());
  }
  const reopener: Reopener | undefined = opened.locked
    ? startReopening({
        file,
        intervalMs: options.reopenIntervalMs,
        forMs: options.reopenForMs,
        logger,
        adopt,
        current: () => connection.db,
        gaveUp: (degraded) => (opened = { ...opened, locked: false, degraded }),
      })
    : undefined;
  let closed = false;

  return {
    get retentionDays() {
      return retention.days;
    },
    setRetentionDays: (days) => retention.setDays(days, now()),
    recordCheck: (record) => queue.push({ kind: 'check', record: { ...record } }),
    recordNodeHealth: (record) => queue.push({ kind: 'node', record: { ...record } }),
    recordTargetCheck: (record) => queue.push({ kind: 'target', record: { ...record } }),
    ...recordReads({ current, queue, guardedRead }),
    raiseAlert: alerts.raiseAlert,
    resolveAlert: alerts.resolveAlert,
    acknowledgeAlert: alerts.acknowledgeAlert,
    openAlerts: alerts.openAlerts,
    recentAlerts: alerts.recentAlerts,
    applyRetention: retention.apply,
    flush: queue.flush,

    status: () => historyStatus(opened, file),

    close() {
      if (closed) return;
      reopener?.stop();
      // A last try, so a lock that cleared since the last one still gets this session's history.
      if (opened.locked && reopener && !reopener.tryNow())
        logger.warn('history of this session not written: its file stayed locked by another program', { file });
      queue.flush();
      closed = true;
      queue.close();
      retention.stop();
      if (queue.pending.length) logger.warn('history records not written at close', { count: queue.pending.length });
      try {
        connection.db.close();
      } catch (error) {
        logger.warn('history database did not close cleanly', { reason: (error as Error).message });
      }
    },
  };
}

function historyStatus(opened: OpenedHistoryFile, file: string): HistoryStatus {
  const status: HistoryStatus = {
    path: opened.onDisk ? file : ':memory:',
    sizeBytes: opened.onDisk ? fileSize(file) + fileSize(`${file}-wal`) : 0,
    schemaVersion: SCHEMA_VERSION,
  };
  if (opened.movedAside) status.movedAside = opened.movedAside;
  if (opened.degraded) status.degraded = opened.degraded;
  if (opened.locked) status.reopening = true;
  return status;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
