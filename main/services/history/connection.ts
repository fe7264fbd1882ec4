/**
 * One open history database (the file, or the in-memory session) with its
 * statements and its id caches: a proxy, node or address is looked up once
 * per database, not per record. The session moving into the file gets a new
 * connection, so no id of one database is ever used in the other.
 */
import { ORIGINS, STAGES } from './rows';
import type { DatabaseSync, StatementSync } from './sqlite-module';
import { prepareStatements, type HistoryStatements } from './statements';
import type { CheckRecord, NodeHealthRecord, TargetCheckRecord } from './types';

/** A record waiting in the write queue (write-queue.ts). */
export type PendingRecord =
  { kind: 'check'; record: CheckRecord } | { kind: 'node'; record: NodeHealthRecord } | { kind: 'target'; record: TargetCheckRecord };

export interface HistoryConnection {
  readonly db: DatabaseSync;
  readonly sql: HistoryStatements;
  /** Inserts one record (inside the caller's transaction). */
  write(item: PendingRecord): void;
  /** Read-only lookups: a proxy or node never recorded has no rows (and is not created by a read). */
  knownProxyId(clusterId: string, vmid: number): number | undefined;
  knownNodeId(clusterId: string, node: string): number | undefined;
  /** Runs `work` in one transaction; on failure rolls back, forgets the ids cached inside it, and throws. */
  transaction(work: () => void): void;
}

const key = (clusterId: string, name: string | number) => `${clusterId}\u0000${name}`;

export function historyConnection(db: DatabaseSync): HistoryConnection {
  const sql = prepareStatements(db);
  const proxyIds = new Map<string, number>();
  const nodeIds = new Map<string, number>();
  const addressIds = new Map<string, number>();
  const targetIds = new Map<string, number>();

  function internedId(
    cache: Map<string, number>,
    cacheKey: string,
    find: StatementSync,
    add: StatementSync,
    ...args: Array<string | number>
  ) {
    const cached = cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const row = find.get(...args) as { id: number } | undefined;
    const id = row ? row.id : Number(add.run(...args).lastInsertRowid);
    cache.set(cacheKey, id);
    return id;
  }
  const proxyId = (clusterId: string, vmid: number) =>
    internedId(proxyIds, key(clusterId, vmid), sql.proxyId, sql.addProxy, clusterId, vmid);
  const nodeId = (clusterId: string, node: string) => internedId(nodeIds, key(clusterId, node), sql.nodeId, sql.addNode, clusterId, node);
  const addressId = (address: string) => internedId(addressIds, address, sql.addressId, sql.addAddress, address);
  const targetId = (url: string) => internedId(targetIds, url, sql.targetId, sql.addTarget, url);
  const whole = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms));

  return {
    db,
    sql,
    write(item) {
      if (item.kind === 'node') {
        const r = item.record;
        sql.insertNodeHealth.run(nodeId(r.clusterId, r.node), r.at, r.reason, r.latencyMs === undefined ? null : Math.round(r.latencyMs));
        return;
      }
      if (item.kind === 'target') {
        const t = item.record;
        const stage = t.stage ? STAGES.indexOf(t.stage) : -1;
        sql.insertTargetCheck.run(
          proxyId(t.clusterId, t.vmid),
          t.at,
          targetId(t.url),
          t.ok ? 1 : 0,
          t.httpStatus ?? null,
          whole(t.firstByteMs),
          whole(t.totalMs),
          stage >= 0 ? stage : null,
          t.problem ?? null,
          ORIGINS.indexOf(t.origin) > 0 ? 1 : 0,
        );
        return;
      }
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
    },
    knownProxyId: (clusterId, vmid) =>
      proxyIds.get(key(clusterId, vmid)) ?? (sql.proxyId.get(clusterId, vmid) as { id: number } | undefined)?.id,
    knownNodeId: (clusterId, node) =>
      nodeIds.get(key(clusterId, node)) ?? (sql.nodeId.get(clusterId, node) as { id: number } | undefined)?.id,
    transaction(work) {
      db.exec('BEGIN');
      try {
        work();
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        // Ids cached inside the rolled-back transaction no longer exist.
        proxyIds.clear();
        nodeIds.clear();
        addressIds.clear();
        targetIds.clear();
        throw error;
      }
    },
  };
}
