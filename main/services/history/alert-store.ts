/**
 * Alerts in the history database. They are rare and their open/resolved
 * state must be exact, so they are written at once, not queued. One open
 * alert per rule and target: an alert the database refused to store is
 * still raised once (the user must hear about it) and kept in memory until
 * it resolves, so raising stays once per rule and target.
 */
import type { HistoryConnection } from './connection';
import type { GuardedRead } from './guarded-read';
import { alertFromRow, type AlertRow } from './rows';
import type { AlertRecord, HistoryStore } from './types';
import type { WriteGuard } from './write-queue';

export interface AlertStore extends Pick<HistoryStore, 'raiseAlert' | 'resolveAlert' | 'acknowledgeAlert' | 'openAlerts' | 'recentAlerts'> {
  /** Alerts whose id changed when the session moved into the file: acknowledging the old id acts on the new one. */
  renumbered(moved: ReadonlyMap<number, number>): void;
}

export interface AlertStoreOptions {
  /** The database the session is on now (it changes when an in-memory session moves into the file). */
  current(): HistoryConnection;
  /** The lowest id a new alert may take (session-move.ts: an in-memory session numbers above every file's ids). */
  idFloor(): number;
  guard: WriteGuard;
  guardedRead: GuardedRead;
}

const alertKey = (rule: string, clusterId: string, target: string) => `${rule}\u0000${clusterId}\u0000${target}`;
const touched = (a: AlertRecord) => Math.max(a.raisedAt, a.resolvedAt ?? 0);

export function alertStore({ current, idFloor, guard, guardedRead }: AlertStoreOptions): AlertStore {
  const unsavedOpenAlerts = new Map<string, AlertRecord>();
  const movedAlertIds = new Map<number, number>();
  const openRow = (rule: string, clusterId: string, target: string) =>
    guardedRead('openAlert', () => current().sql.openAlert.get(rule, clusterId, target) as AlertRow | undefined, undefined);

  return {
    raiseAlert(alert) {
      const key = alertKey(alert.rule, alert.clusterId, alert.target);
      const unsaved = unsavedOpenAlerts.get(key);
      if (unsaved) return { alert: unsaved, raised: false };
      const open = openRow(alert.rule, alert.clusterId, alert.target);
      if (open) return { alert: alertFromRow(open), raised: false };
      let created: AlertRecord | undefined;
      guard.run('raiseAlert', () => {
        const { sql } = current();
        const inserted = sql.insertAlert.run(
          alert.rule,
          alert.clusterId,
          alert.target,
          alert.label,
          alert.raisedAt,
          alert.reason,
          alert.hint,
          idFloor(),
        );
        created = { ...alert, id: Number(inserted.lastInsertRowid) };
      });
      if (created) return { alert: created, raised: true };
      // Not stored: still raised once, remembered in memory until resolved.
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
      const open = openRow(rule, clusterId, target);
      if (!open) return undefined;
      guard.run('resolveAlert', () => current().sql.resolveAlert.run(at, open.id));
      return { ...alertFromRow(open), resolvedAt: at };
    },

    acknowledgeAlert(requestedId, at) {
      const id = movedAlertIds.get(requestedId) ?? requestedId;
      const unsaved = [...unsavedOpenAlerts.values()].find((a) => a.id === id);
      if (unsaved) {
        unsaved.acknowledgedAt ??= at;
        return unsaved;
      }
      guard.run('acknowledgeAlert', () => current().sql.acknowledgeAlert.run(at, id));
      const row = guardedRead('alertById', () => current().sql.alertById.get(id) as AlertRow | undefined, undefined);
      return row ? alertFromRow(row) : undefined;
    },

    openAlerts() {
      const stored = guardedRead('openAlerts', () => (current().sql.openAlerts.all() as AlertRow[]).map(alertFromRow), [] as AlertRecord[]);
      return [...unsavedOpenAlerts.values(), ...stored];
    },

    recentAlerts(sinceMs, limit) {
      const stored = guardedRead(
        'recentAlerts',
        () => (current().sql.recentAlerts.all(sinceMs, limit) as AlertRow[]).map(alertFromRow),
        [] as AlertRecord[],
      );
      const unsaved = [...unsavedOpenAlerts.values()].filter((a) => a.raisedAt >= sinceMs);
      return unsaved.length ? [...unsaved, ...stored].sort((a, b) => touched(b) - touched(a)).slice(0, limit) : stored;
    },

    renumbered(moved) {
      for (const [from, to] of moved) movedAlertIds.set(from, to);
    },
  };
}
