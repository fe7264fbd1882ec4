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
 */
import { statSync } from 'node:fs';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../../../shared/domain/profile';
import type { Logger } from '../../log/logger';
import { memoryHistoryStore } from './memory-store';
import { openHistoryFile, type OpenedHistoryFile } from './open-file';
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
  logger: Logger;
  now?: () => number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

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
  const db: DatabaseSync = opened.db;
  if (opened.movedAside) {
    logger.warn('history database was unusable and was moved aside; a fresh one was created', {
      movedTo: opened.movedAside.path,
      reason: opened.movedAside.reason,
    });
  }
  if (opened.degraded)
    logger.warn('history database could not be opened; history is kept in memory until restart', { reason: opened.degraded });

  const sql = {
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
    insertAlert: db.prepare('INSERT INTO alerts (rule, cluster, target, label, raised_at, reason, hint) VALUES (?, ?, ?, ?, ?, ?, ?)'),
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

  // Id caches: a proxy, node or address is looked up once per process, not per record.
  const proxyIds = new Map<string, number>();
  const nodeIds = new Map<string, number>();
  const addressIds = new Map<string, number>();

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
        proxyIds.clear();
        nodeIds.clear();
        addressIds.clear();
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
          sql.insertAlert.run(alert.rule, alert.clusterId, alert.target, alert.label, alert.raisedAt, alert.reason, alert.hint)
            .lastInsertRowid,
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

    acknowledgeAlert(id, at) {
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
      return status;
    },

    close() {
      if (closed) return;
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
