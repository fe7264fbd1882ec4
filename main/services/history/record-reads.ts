/**
 * Reading checks and node health: the queue is flushed first, and what is
 * still queued because the disk refuses the write is merged in, so a caller
 * always reads its own writes.
 */
import type { HistoryConnection, PendingRecord } from './connection';
import type { GuardedRead } from './guarded-read';
import { byAt, checkFromRow, nodeHealthFromRow, targetCheckFromRow, type CheckRow, type NodeHealthRow, type TargetCheckRow } from './rows';
import type { CheckRecord, HistoryStore, NodeHealthRecord, TargetCheckRecord } from './types';
import type { WriteQueue } from './write-queue';

export type RecordReads = Pick<HistoryStore, 'checks' | 'latestChecks' | 'nodeHealth' | 'targetChecks'>;

export interface RecordReadsOptions {
  /** The database the session is on now (it changes when an in-memory session moves into the file). */
  current(): HistoryConnection;
  queue: WriteQueue<PendingRecord>;
  guardedRead: GuardedRead;
}

export function recordReads({ current, queue, guardedRead }: RecordReadsOptions): RecordReads {
  const pendingChecks = (match: (r: CheckRecord) => boolean): CheckRecord[] =>
    queue.pending.flatMap((item) => (item.kind === 'check' && match(item.record) ? [item.record] : []));

  return {
    checks(clusterId, vmid, sinceMs, untilMs = Number.MAX_SAFE_INTEGER) {
      queue.flushForRead();
      const stored = guardedRead(
        'checks',
        () => {
          const { sql, knownProxyId } = current();
          const id = knownProxyId(clusterId, vmid);
          return id === undefined ? [] : (sql.checks.all(id, sinceMs, untilMs) as CheckRow[]).map((row) => checkFromRow(clusterId, row));
        },
        [] as CheckRecord[],
      );
      const queued = pendingChecks((r) => r.clusterId === clusterId && r.vmid === vmid && r.at >= sinceMs && r.at <= untilMs);
      return queued.length ? [...stored, ...queued].sort(byAt) : stored;
    },

    targetChecks(clusterId, vmid, sinceMs, untilMs = Number.MAX_SAFE_INTEGER) {
      queue.flushForRead();
      const stored = guardedRead(
        'targetChecks',
        () => {
          const { sql, knownProxyId } = current();
          const id = knownProxyId(clusterId, vmid);
          if (id === undefined) return [];
          return (sql.targetChecks.all(id, sinceMs, untilMs) as TargetCheckRow[]).map((row) => targetCheckFromRow(clusterId, row));
        },
        [] as TargetCheckRecord[],
      );
      const queued = queue.pending.flatMap((item) =>
        item.kind === 'target' &&
        item.record.clusterId === clusterId &&
        item.record.vmid === vmid &&
        item.record.at >= sinceMs &&
        item.record.at <= untilMs
          ? [item.record]
          : [],
      );
      return queued.length ? [...stored, ...queued].sort(byAt) : stored;
    },
    latestChecks(clusterId) {
      queue.flushForRead();
      const latest = new Map<number, CheckRecord>();
      const stored = guardedRead('latestChecks', () => current().sql.latestChecks.all(clusterId) as CheckRow[], []);
      for (const row of stored) latest.set(row.vmid, checkFromRow(clusterId, row));
      for (const r of pendingChecks((r) => r.clusterId === clusterId)) {
        const known = latest.get(r.vmid);
        if (!known || r.at >= known.at) latest.set(r.vmid, r);
      }
      return [...latest.values()].sort((a, b) => a.vmid - b.vmid);
    },

    nodeHealth(clusterId, node, sinceMs, untilMs = Number.MAX_SAFE_INTEGER) {
      queue.flushForRead();
      const stored = guardedRead(
        'nodeHealth',
        () => {
          const { sql, knownNodeId } = current();
          const id = knownNodeId(clusterId, node);
          if (id === undefined) return [];
          const rows = sql.nodeHealth.all(id, sinceMs, untilMs) as NodeHealthRow[];
          return rows.map((row) => nodeHealthFromRow(clusterId, node, row));
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
  };
}
