/**
 * The history store (types.ts HistoryStore) over SQLite: checks, node health
 * and alerts in history.sqlite in the app's data folder (schema.ts), opened
 * so that a bad file never crashes the app (open-file.ts).
 *
 * Checks and node health are queued in memory and written in one transaction
 * per batch (batchSize records or flushIntervalMs, whichever comes first), so
 * a crash loses at most the last batch. Reads flush first, and merge what is
 * still queued when the disk refuses the write, so a caller always reads its
 * own writes. Alerts are rare and their open/resolved state must be exact,
 * so they are written at once.
 *
 * A write failing at runtime (SQLITE_FULL, the disk gone) is logged once,
 * keeps the queue for a later retry (bounded: the oldest are dropped past
 * maxPending) and never throws to the caller (write-queue.ts).
 *
 * A file another program holds locked through the tries at start (open-file.ts
 * `locked`) is tried again in the background, without waiting on its lock,
 * after 1 s and then at doubling intervals up to a minute, for 30 minutes in
 * all; the session meanwhile runs in an in-memory database, and once the file
 * opens every row of the session moves into it in one transaction (alert ids
 * kept), so a restart finds everything recorded. status() says which it is.
 */
import { statSync } from 'node:fs';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../../../shared/domain/profile';
import type { Logger } from '../../log/logger';
import { memoryHistoryStore } from './memory-store';
import { closeQuietly, describe, isLocked, openHistoryFile, reopenHistoryFile, type OpenedHistoryFile } from './open-file';
import { SCHEMA_VERSION } from './schema';
import { createWriteGuard, createWriteQueue } from './write-queue';
import type { DatabaseSync, StatementSync } from './sqlite-module';
import type { AlertRecord, AlertRuleId, CheckRecord, HistoryDatabase, HistoryStatus, NodeHealthRecord } from './types';

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

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const STAGES = ['connect', 'handshake', 'request'] as const;
const ORIGINS = ['scheduled', 'manual'] as const;

type Pending = { kind: 'check'; record: CheckRecord } | { kind: 'node'; record: NodeHealthRecord };

interface CheckRow {
  vmid: number;
  at: number;
  ok: number;
  latency_ms: number | null;
  http_status: number | null;
  address: string | null;
  problem: string | null;
  stage: number | null;
  origin: number;
}

type SessionCheckRow = CheckRow & { cluster: string };
interface SessionNodeHealthRow {
  cluster: string;
  node: string;
  at: number;
  reason: string;
  latency_ms: number | null;
}

interface AlertRow {
  id: number;
  rule: string;
  cluster: string;
  target: string;
  label: string;
  raised_at: number;
  resolved_at: number | null;
  acknowledged_at: number | null;
  reason: string;
  hint: string;
}

function checkFromRow(clusterId: string, row: CheckRow): CheckRecord {
  const record: CheckRecord = { clusterId, vmid: row.vmid, at: row.at, ok: row.ok === 1, origin: ORIGINS[row.origin] ?? 'scheduled' };
  if (row.latency_ms !== null) record.latencyMs = row.latency_ms;
  if (row.http_status !== null) record.httpStatus = row.http_status;
  if (row.address !== null) record.egressAddress = row.address;
  if (row.problem !== null) record.problem = row.problem;
  const stage = row.stage === null ? undefined : STAGES[row.stage];
  if (stage) record.stage = stage;
  return record;
}

function alertFromRow(row: AlertRow): AlertRecord {
  const alert: AlertRecord = {
    id: row.id,
    rule: row.rule as AlertRuleId,
    clusterId: row.cluster,
    target: row.target,
    label: row.label,
    raisedAt: row.raised_at,
    reason: row.reason,
    hint: row.hint,
  };
  if (row.resolved_at !== null) alert.resolvedAt = row.resolved_at;
  if (row.acknowledged_at !== null) alert.acknowledgedAt = row.acknowledged_at;
  return alert;
}

const byAt = (a: { at: number }, b: { at: number }) => a.at - b.at;

function prepareStatements(db: DatabaseSync) {
  return {
    proxyId: db.prepare('SELECT id FROM proxies WHERE cluster = ? AND vmid = ?'),
    addProxy: db.prepare('INSERT INTO proxies (cluster, vmid) VALUES (?, ?)'),
    addressId: db.prepare('SELECT id FROM addresses WHERE address = ?'),
    addAddress: db.prepare('INSERT INTO addresses (address) VALUES (?)'),
    nodeId: db.prepare('SELECT id FROM nodes WHERE cluster = ? AND node = ?'),
    addNode: db.prepare('INSERT INTO nodes (cluster, node) VALUES (?, ?)'),
    // seq numbers a second check of a proxy in the same millisecond (the key is proxy, at, seq).
    insertCheck: db.prepare(
      `INSERT INTO checks (proxy, at, seq, ok, latency_ms, http_status, egress, problem, stage, origin)
       VALUES (?1, ?2, (SELECT count(*) FROM checks WHERE proxy = ?1 AND at = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    ),
    insertNodeHealth: db.prepare(
      `INSERT INTO node_health (node, at, seq, reason, latency_ms)
       VALUES (?1, ?2, (SELECT count(*) FROM node_health WHERE node = ?1 AND at = ?2), ?3, ?4)`,
    ),
    checks: db.prepare(
      `SELECT p.vmid, c.at, c.ok, c.latency_ms, c.http_status, a.address, c.problem, c.stage, c.origin
       FROM checks c JOIN proxies p ON p.id = c.proxy LEFT JOIN addresses a ON a.id = c.egress
       WHERE c.proxy = ? AND c.at BETWEEN ? AND ? ORDER BY c.at, c.seq`,
    ),
    latestChecks: db.prepare(
      `SELECT p.vmid, c.at, c.ok, c.latency_ms, c.http_status, a.address, c.problem, c.stage, c.origin
       FROM proxies p
       JOIN checks c ON c.proxy = p.id AND c.at = (SELECT max(at) FROM checks WHERE proxy = p.id)
       LEFT JOIN addresses a ON a.id = c.egress
       WHERE p.cluster = ? ORDER BY p.vmid, c.seq`,
    ),
    nodeHealth: db.prepare('SELECT at, reason, latency_ms FROM node_health WHERE node = ? AND at BETWEEN ? AND ? ORDER BY at, seq'),
    openAlert: db.prepare('SELECT * FROM alerts WHERE rule = ? AND cluster = ? AND target = ? AND resolved_at IS NULL'),
    alertById: db.prepare('SELECT * FROM alerts WHERE id = ?'),
    // The next id above both the highest one and the floor (0 in a file: what SQLite would pick itself).
    insertAlert: db.prepare(
      `INSERT INTO alerts (id, rule, cluster, target, label, raised_at, reason, hint)
       VALUES (max(coalesce((SELECT max(id) FROM alerts), 0), ?8) + 1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    ),
    carryAlert: db.prepare(
      `INSERT INTO alerts (id, rule, cluster, target, label, raised_at, resolved_at, acknowledged_at, reason, hint)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    nextAlertId: db.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM alerts'),
    allChecks: db.prepare(
      `SELECT p.cluster, p.vmid, c.at, c.ok, c.latency_ms, c.http_status, a.address, c.problem, c.stage, c.origin
       FROM checks c JOIN proxies p ON p.id = c.proxy LEFT JOIN addresses a ON a.id = c.egress ORDER BY c.at, c.seq`,
    ),
    allNodeHealth: db.prepare(
      'SELECT n.cluster, n.node, h.at, h.reason, h.latency_ms FROM node_health h JOIN nodes n ON n.id = h.node ORDER BY h.at, h.seq',
    ),
    allAlerts: db.prepare('SELECT * FROM alerts ORDER BY raised_at, id'),
    resolveAlert: db.prepare('UPDATE alerts SET resolved_at = ? WHERE id = ?'),
    acknowledgeAlert: db.prepare('UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL'),
    openAlerts: db.prepare('SELECT * FROM alerts WHERE resolved_at IS NULL ORDER BY raised_at DESC, id DESC'),
    recentAlerts: db.prepare(
      `SELECT * FROM alerts WHERE raised_at >= ?1 OR resolved_at >= ?1
       ORDER BY max(raised_at, coalesce(resolved_at, 0)) DESC, id DESC LIMIT ?2`,
    ),
    allProxies: db.prepare('SELECT id FROM proxies'),
    allNodes: db.prepare('SELECT id FROM nodes'),
    deleteChecks: db.prepare('DELETE FROM checks WHERE proxy = ? AND at < ?'),
    deleteNodeHealth: db.prepare('DELETE FROM node_health WHERE node = ? AND at < ?'),
    deleteResolvedAlerts: db.prepare('DELETE FROM alerts WHERE resolved_at IS NOT NULL AND resolved_at < ?'),
  } satisfies Record<string, StatementSync>;
}

export function openHistoryDatabase(options: HistoryDatabaseOptions): HistoryDatabase {
  const now = options.now ?? Date.now;
  const logger = options.logger;
  const batchSize = Math.max(1, options.batchSize ?? 200);
  const flushIntervalMs = options.flushIntervalMs ?? 2000;
  const maxPending = Math.max(batchSize, options.maxPending ?? batchSize * 20);
  let retentionDays = options.retentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS;

  let opened: OpenedHistoryFile;
  try {
    opened = openHistoryFile(options.file, now());
  } catch (error) {
    // Only a runtime without node:sqlite gets here: open-file.ts turns every file problem into a status.
    const degraded = `the history database is not available (${(error as Error).message})`;
    logger.warn('history is kept in memory until restart', { reason: degraded });
    return memoryHistoryStore(degraded, { retentionDays, now });
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

  let db: DatabaseSync = opened.db;
  // A session in memory numbers its alerts from its start time in microseconds: ids no file holds yet, so they can be
  // kept when the session's rows move into the file (a window showing an alert keeps acting on the same id).
  let alertIdFloor = opened.onDisk ? 0 : now() * 1000;
  let sql = prepareStatements(db);

  // Id caches: a proxy, node or address is looked up once per database, not per record.
  const proxyIds = new Map<string, number>();
  const nodeIds = new Map<string, number>();
  const addressIds = new Map<string, number>();
  const clearIdCaches = () => {
    proxyIds.clear();
    nodeIds.clear();
    addressIds.clear();
  };

  function internedId(
    cache: Map<string, number>,
    key: string,
    find: StatementSync,
    add: StatementSync,
    ...args: Array<string | number>
  ): number {
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const row = find.get(...args) as { id: number } | undefined;
    const id = row ? row.id : Number(add.run(...args).lastInsertRowid);
    cache.set(key, id);
    return id;
  }
  const proxyId = (clusterId: string, vmid: number) =>
    internedId(proxyIds, `${clusterId}\u0000${vmid}`, sql.proxyId, sql.addProxy, clusterId, vmid);
  const nodeId = (clusterId: string, node: string) =>
    internedId(nodeIds, `${clusterId}\u0000${node}`, sql.nodeId, sql.addNode, clusterId, node);
  const addressId = (address: string) => internedId(addressIds, address, sql.addressId, sql.addAddress, address);
  /** Read-only lookup: a proxy never recorded has no rows (and is not created by a read). */
  const knownProxyId = (clusterId: string, vmid: number): number | undefined =>
    proxyIds.get(`${clusterId}\u0000${vmid}`) ?? (sql.proxyId.get(clusterId, vmid) as { id: number } | undefined)?.id;
  const knownNodeId = (clusterId: string, node: string): number | undefined =>
    nodeIds.get(`${clusterId}\u0000${node}`) ?? (sql.nodeId.get(clusterId, node) as { id: number } | undefined)?.id;

  function writeOne(item: Pending): void {
    if (item.kind === 'check') {
      const r = item.record;
      const stage = r.stage ? STAGES.indexOf(r.stage) : -1;
      sql.insertCheck.run(
        proxyId(r.clusterId, r.vmid),
        r.at,
        r.ok ? 1 : 0,
        r.latencyMs === undefined ? null : Math.round(r.latencyMs),
        r.httpStatus ?? null,
        r.egressAddress ? addressId(r.egressAddress) : null,
        r.problem ?? null,
        stage >= 0 ? stage : null,
        ORIGINS.indexOf(r.origin) > 0 ? 1 : 0,
      );
    } else {
      const r = item.record;
      sql.insertNodeHealth.run(nodeId(r.clusterId, r.node), r.at, r.reason, r.latencyMs === undefined ? null : Math.round(r.latencyMs));
    }
  }

  const guard = createWriteGuard(logger);
  const queue = createWriteQueue<Pending>({
    batchSize,
    flushIntervalMs,
    maxPending,
    guard,
    logger,
    writeBatch(batch) {
      db.exec('BEGIN');
      try {
        for (const item of batch) writeOne(item);
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        // Ids cached inside the rolled-back transaction no longer exist.
        clearIdCaches();
        throw error;
      }
    },
  });
  const { flush } = queue;
  let closed = false;

  function pendingChecks(match: (r: CheckRecord) => boolean): CheckRecord[] {
    return queue.pending.flatMap((item) => (item.kind === 'check' && match(item.record) ? [item.record] : []));
  }

  /** Runs a read; a failing read (disk gone) answers the fallback instead of throwing. */
  function guardedRead<T>(what: string, read: () => T, fallback: T): T {
    try {
      return read();
    } catch (error) {
      logger.warn('history database read failed', { what, reason: (error as Error).message });
      return fallback;
    }
  }

  // Alerts the database refused to store, kept so raising stays once per rule and target.
  const unsavedOpenAlerts = new Map<string, AlertRecord>();
  const alertKey = (rule: string, clusterId: string, target: string) => `${rule}\u0000${clusterId}\u0000${target}`;

  function applyRetention(nowMs: number): number {
    flush();
    const cut = nowMs - retentionDays * DAY_MS;
    let removed = 0;
    guard.run('retention', () => {
      db.exec('BEGIN');
      try {
        for (const { id } of sql.allProxies.all() as Array<{ id: number }>) removed += Number(sql.deleteChecks.run(id, cut).changes);
        for (const { id } of sql.allNodes.all() as Array<{ id: number }>) removed += Number(sql.deleteNodeHealth.run(id, cut).changes);
        removed += Number(sql.deleteResolvedAlerts.run(cut).changes);
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        removed = 0;
        throw error;
      }
    });
    if (removed > 0) logger.info('history retention removed old rows', { removed, retentionDays });
    return removed;
  }

  applyRetention(now());
  const retentionTimer = setInterval(() => applyRetention(now()), options.retentionIntervalMs ?? HOUR_MS);
  retentionTimer.unref();

  // ---- A file another program held locked at start: tried again in the background, the session's rows moved in. ----
  const reopenIntervalMs = Math.max(1, options.reopenIntervalMs ?? 1000);
  const reopenForMs = options.reopenForMs ?? 30 * MINUTE_MS;
  /** Alerts whose id changed when the session moved into the file (continued by the file's open alert, or id taken). */
  const movedAlertIds = new Map<number, number>();
  let reopenTimer: NodeJS.Timeout | undefined;
  let reopenTries = 0;
  let reopenWaitedMs = 0;

  /** Copies this session's rows from memory into the file in one transaction, then works on the file. */
  function moveSessionInto(file: DatabaseSync): void {
    queue.flush(); // into the memory database: it never refuses
    const memory = { db, sql };
    const checks = (sql.allChecks.all() as unknown as SessionCheckRow[]).map((row) => checkFromRow(row.cluster, row));
    const health = (sql.allNodeHealth.all() as unknown as SessionNodeHealthRow[]).map((row): NodeHealthRecord => {
      const record: NodeHealthRecord = { clusterId: row.cluster, node: row.node, at: row.at, reason: row.reason };
      if (row.latency_ms !== null) record.latencyMs = row.latency_ms;
      return record;
    });
    const alerts = (sql.allAlerts.all() as unknown as AlertRow[]).map(alertFromRow);
    db = file;
    sql = prepareStatements(file);
    clearIdCaches();
    const moved = new Map<number, number>();
    try {
      file.exec('BEGIN');
      for (const record of checks) writeOne({ kind: 'check', record });
      for (const record of health) writeOne({ kind: 'node', record });
      for (const alert of alerts) {
        const id = carryAlert(alert);
        if (id !== alert.id) moved.set(alert.id, id);
      }
      file.exec('COMMIT');
    } catch (error) {
      if (file.isTransaction) file.exec('ROLLBACK');
      ({ db, sql } = memory);
      clearIdCaches();
      throw error;
    }
    for (const [from, to] of moved) movedAlertIds.set(from, to);
    memory.db.close();
    alertIdFloor = 0;
    opened = { db: file, onDisk: true, ...(opened.movedAside ? { movedAside: opened.movedAside } : {}) };
    logger.info("history database is free again; this session's history was moved into it", {
      checks: checks.length,
      nodeHealth: health.length,
      alerts: alerts.length,
      tries: reopenTries,
    });
    applyRetention(now());
  }

  /**
   * One alert of the session into the file. The file's open alert for the same rule and target (from before this
   * session) is the same condition: it goes on, taking this session's resolve and acknowledge, instead of a second one.
   */
  function carryAlert(alert: AlertRecord): number {
    const open = sql.openAlert.get(alert.rule, alert.clusterId, alert.target) as AlertRow | undefined;
    if (open) {
      if (alert.resolvedAt !== undefined) sql.resolveAlert.run(alert.resolvedAt, open.id);
      if (alert.acknowledgedAt !== undefined) sql.acknowledgeAlert.run(alert.acknowledgedAt, open.id);
      return open.id;
    }
    const id = sql.alertById.get(alert.id) ? (sql.nextAlertId.get() as { id: number }).id : alert.id;
    sql.carryAlert.run(
      id,
      alert.rule,
      alert.clusterId,
      alert.target,
      alert.label,
      alert.raisedAt,
      alert.resolvedAt ?? null,
      alert.acknowledgedAt ?? null,
      alert.reason,
      alert.hint,
    );
    return id;
  }

  /** Tries the file once without waiting for its lock; answers whether the session is on it now. */
  function tryReopen(): boolean {
    reopenTries++;
    let file: DatabaseSync | undefined;
    try {
      file = reopenHistoryFile(options.file);
      moveSessionInto(file);
      return true;
    } catch (error) {
      if (file && file !== db) closeQuietly(file);
      if (!isLocked(error)) stopReopening(`${options.file} could not be opened once it was free: ${describe(error)}`, error);
      return false;
    }
  }

  function stopReopening(degraded: string, error?: unknown): void {
    opened = { ...opened, locked: false, degraded };
    logger.warn('history database is not tried again; history is kept in memory until restart', {
      reason: degraded,
      ...(error ? { error: describe(error) } : {}),
    });
  }

  function scheduleReopen(): void {
    if (!opened.locked || closed) return;
    const delay = Math.min(reopenIntervalMs * 2 ** Math.min(reopenTries, 16), MINUTE_MS);
    if (reopenWaitedMs + delay > reopenForMs) {
      stopReopening(`${options.file} stayed locked by another program for ${Math.round(reopenWaitedMs / 1000)} s after the start`);
      return;
    }
    reopenWaitedMs += delay;
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined;
      if (!closed && !tryReopen()) scheduleReopen();
    }, delay);
    reopenTimer.unref();
  }
  scheduleReopen();

  const store: HistoryDatabase = {
    get retentionDays() {
      return retentionDays;
    },

    setRetentionDays(days) {
      if (!Number.isFinite(days) || days < 1 || Math.floor(days) === retentionDays) return;
      retentionDays = Math.floor(days);
      applyRetention(now());
    },

    recordCheck(record) {
      queue.push({ kind: 'check', record: { ...record } });
    },

    checks(clusterId, vmid, sinceMs, untilMs = Number.MAX_SAFE_INTEGER) {
      queue.flushForRead();
      const stored = guardedRead(
        'checks',
        () => {
          const id = knownProxyId(clusterId, vmid);
          return id === undefined
            ? []
            : (sql.checks.all(id, sinceMs, untilMs) as unknown as CheckRow[]).map((row) => checkFromRow(clusterId, row));
        },
        [] as CheckRecord[],
      );
      const queued = pendingChecks((r) => r.clusterId === clusterId && r.vmid === vmid && r.at >= sinceMs && r.at <= untilMs);
      return queued.length ? [...stored, ...queued].sort(byAt) : stored;
    },

    latestChecks(clusterId) {
      queue.flushForRead();
      const latest = new Map<number, CheckRecord>();
      const stored = guardedRead('latestChecks', () => sql.latestChecks.all(clusterId) as unknown as CheckRow[], []);
      for (const row of stored) latest.set(row.vmid, checkFromRow(clusterId, row));
      for (const r of pendingChecks((r) => r.clusterId === clusterId)) {
        const known = latest.get(r.vmid);
        if (!known || r.at >= known.at) latest.set(r.vmid, r);
      }
      return [...latest.values()].sort((a, b) => a.vmid - b.vmid);
    },

    recordNodeHealth(record) {
      queue.push({ kind: 'node', record: { ...record } });
    },

    nodeHealth(clusterId, node, sinceMs, untilMs = Number.MAX_SAFE_INTEGER) {
      queue.flushForRead();
      const stored = guardedRead(
        'nodeHealth',
        () => {
          const id = knownNodeId(clusterId, node);
          if (id === undefined) return [];
          const rows = sql.nodeHealth.all(id, sinceMs, untilMs) as Array<{ at: number; reason: string; latency_ms: number | null }>;
          return rows.map((row): NodeHealthRecord => {
            const record: NodeHealthRecord = { clusterId, node, at: row.at, reason: row.reason };
            if (row.latency_ms !== null) record.latencyMs = row.latency_ms;
            return record;
          });
        },
        [] as NodeHealthRecord[],
      );
      const queued = queue.pending.flatMap((item) =>
        item.kind === 'node' &&
        item.record.clusterId === clusterId &&
        item.record.node === node &&
        item.record.at >= sinceMs &&
        item.record.at <= untilMs
          ? [item.record]
          : [],
      );
      return queued.length ? [...stored, ...queued].sort(byAt) : stored;
    },

    raiseAlert(alert) {
      const key = alertKey(alert.rule, alert.clusterId, alert.target);
      const unsaved = unsavedOpenAlerts.get(key);
      if (unsaved) return { alert: unsaved, raised: false };
      const open = guardedRead(
        'openAlert',
        () => sql.openAlert.get(alert.rule, alert.clusterId, alert.target) as AlertRow | undefined,
        undefined,
      );
      if (open) return { alert: alertFromRow(open), raised: false };
      let created: AlertRecord | undefined;
      guard.run('raiseAlert', () => {
        const id = Number(
          sql.insertAlert.run(
            alert.rule,
            alert.clusterId,
            alert.target,
            alert.label,
            alert.raisedAt,
            alert.reason,
            alert.hint,
            alertIdFloor,
          ).lastInsertRowid,
        );
        created = { ...alert, id };
      });
      if (created) return { alert: created, raised: true };
      // Not stored: still raised once (the user must hear about it), remembered in memory until resolved.
      const inMemory: AlertRecord = { ...alert, id: -(unsavedOpenAlerts.size + 1) };
      unsavedOpenAlerts.set(key, inMemory);
      return { alert: inMemory, raised: true };
    },

    resolveAlert(rule, clusterId, target, at) {
      const key = alertKey(rule, clusterId, target);
      const unsaved = unsavedOpenAlerts.get(key);
      if (unsaved) {
        unsavedOpenAlerts.delete(key);
        return { ...unsaved, resolvedAt: at };
      }
      const open = guardedRead('openAlert', () => sql.openAlert.get(rule, clusterId, target) as AlertRow | undefined, undefined);
      if (!open) return undefined;
      guard.run('resolveAlert', () => sql.resolveAlert.run(at, open.id));
      return { ...alertFromRow(open), resolvedAt: at };
    },

    acknowledgeAlert(requestedId, at) {
      const id = movedAlertIds.get(requestedId) ?? requestedId;
      const unsaved = [...unsavedOpenAlerts.values()].find((a) => a.id === id);
      if (unsaved) {
        unsaved.acknowledgedAt ??= at;
        return unsaved;
      }
      guard.run('acknowledgeAlert', () => sql.acknowledgeAlert.run(at, id));
      const row = guardedRead('alertById', () => sql.alertById.get(id) as AlertRow | undefined, undefined);
      return row ? alertFromRow(row) : undefined;
    },

    openAlerts() {
      const stored = guardedRead(
        'openAlerts',
        () => (sql.openAlerts.all() as unknown as AlertRow[]).map(alertFromRow),
        [] as AlertRecord[],
      );
      return [...unsavedOpenAlerts.values(), ...stored];
    },

    recentAlerts(sinceMs, limit) {
      const stored = guardedRead(
        'recentAlerts',
        () => (sql.recentAlerts.all(sinceMs, limit) as unknown as AlertRow[]).map(alertFromRow),
        [] as AlertRecord[],
      );
      const unsaved = [...unsavedOpenAlerts.values()].filter((a) => a.raisedAt >= sinceMs);
      return unsaved.length
        ? [...unsaved, ...stored]
            .sort((a, b) => Math.max(b.raisedAt, b.resolvedAt ?? 0) - Math.max(a.raisedAt, a.resolvedAt ?? 0))
            .slice(0, limit)
        : stored;
    },

    applyRetention,
    flush,

    status(): HistoryStatus {
      const status: HistoryStatus = {
        path: opened.onDisk ? options.file : ':memory:',
        sizeBytes: opened.onDisk ? fileSize(options.file) + fileSize(`${options.file}-wal`) : 0,
        schemaVersion: SCHEMA_VERSION,
      };
      if (opened.movedAside) status.movedAside = opened.movedAside;
      if (opened.degraded) status.degraded = opened.degraded;
      if (opened.locked) status.reopening = true;
      return status;
    },

    close() {
      if (closed) return;
      clearTimeout(reopenTimer);
      // A last try, so a lock that cleared since the last one still gets this session's history.
      if (opened.locked && !tryReopen())
        logger.warn('history of this session not written: its file stayed locked by another program', { file: options.file });
      flush();
      closed = true;
      queue.close();
      clearInterval(retentionTimer);
      if (queue.pending.length) logger.warn('history records not written at close', { count: queue.pending.length });
      try {
        db.close();
      } catch (error) {
        logger.warn('history database did not close cleanly', { reason: (error as Error).message });
      }
    },
  };
  return store;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
