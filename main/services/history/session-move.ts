/**
 * Moving a session that ran in memory (its file was locked at start) into
 * the file once it opens: every check, node health row and alert, in one
 * transaction, so a restart finds everything recorded.
 *
 * Alert ids are kept: a session in memory numbers its alerts from its start
 * time in microseconds (SESSION_ALERT_ID_FLOOR), ids no file holds yet, so a
 * window showing an alert keeps acting on the same id. An alert whose id the
 * file has taken anyway, or that the file's open alert continues, gets a new
 * one; moveSession says which.
 */
import type { HistoryConnection } from './connection';
import {
  alertFromRow,
  checkFromRow,
  nodeHealthFromRow,
  targetCheckFromRow,
  type AlertRow,
  type SessionCheckRow,
  type SessionNodeHealthRow,
  type SessionTargetCheckRow,
} from './rows';
import type { AlertRecord } from './types';

/** The id floor of a session in memory that started at `nowMs` (the file's own floor is 0: what SQLite would pick). */
export const sessionAlertIdFloor = (nowMs: number) => nowMs * 1000;

export interface MovedSession {
  checks: number;
  nodeHealth: number;
  alerts: number;
  /** The session's alert ids that changed in the file, old to new. */
  renumbered: Map<number, number>;
}

/** Copies every row of `memory` into `file` in one transaction; throws (rolled back, `file` unchanged) when it fails. */
export function moveSession(memory: HistoryConnection, file: HistoryConnection): MovedSession {
  const { sql } = memory;
  const checks = (sql.allChecks.all() as SessionCheckRow[]).map((row) => checkFromRow(row.cluster, row));
  const targets = (sql.allTargetChecks.all() as SessionTargetCheckRow[]).map((row) => targetCheckFromRow(row.cluster, row));
  const health = (sql.allNodeHealth.all() as SessionNodeHealthRow[]).map((row) => nodeHealthFromRow(row.cluster, row.node, row));
  const alerts = (sql.allAlerts.all() as AlertRow[]).map(alertFromRow);
  const renumbered = new Map<number, number>();
  file.transaction(() => {
    for (const record of checks) file.write({ kind: 'check', record });
    for (const record of health) file.write({ kind: 'node', record });
    for (const record of targets) file.write({ kind: 'target', record });
    for (const alert of alerts) {
      const id = carryAlert(file, alert);
      if (id !== alert.id) renumbered.set(alert.id, id);
    }
  });
  return { checks: checks.length, nodeHealth: health.length, alerts: alerts.length, renumbered };
}

/**
 * One alert of the session into the file. The file's open alert for the same rule and target (from before this
 * session) is the same condition: it goes on, taking this session's resolve and acknowledge, instead of a second one.
 */
function carryAlert({ sql }: HistoryConnection, alert: AlertRecord): number {
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
