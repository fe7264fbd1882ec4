/**
 * The last resort when the runtime has no node:sqlite at all (history-db.ts
 * uses an in-memory SQLite database for every other failure): the same
 * HistoryStore in plain arrays, kept until the app closes, with the same
 * rules (one open alert per rule and target, retention never deleting an
 * open alert), so the checks and alerts keep working and nothing crashes.
 */
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../../../shared/domain/profile';
import type { AlertRecord, CheckRecord, HistoryDatabase, NodeHealthRecord, TargetCheckRecord } from './types';

const DAY_MS = 86_400_000;
const inRange = (at: number, since: number, until: number) => at >= since && at <= until;
const byAt = (a: { at: number }, b: { at: number }) => a.at - b.at;
const touched = (a: AlertRecord) => Math.max(a.raisedAt, a.resolvedAt ?? 0);

export function memoryHistoryStore(degraded: string, options: { retentionDays?: number; now: () => number }): HistoryDatabase {
  let retentionDays = options.retentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS;
  let checks: CheckRecord[] = [];
  let health: NodeHealthRecord[] = [];
  let targets: TargetCheckRecord[] = [];
  let alerts: AlertRecord[] = [];
  let nextId = 1;
  const openAlert = (rule: string, clusterId: string, target: string) =>
    alerts.find((a) => a.rule === rule && a.clusterId === clusterId && a.target === target && a.resolvedAt === undefined);

  const applyRetention = (nowMs: number) => {
    const cut = nowMs - retentionDays * DAY_MS;
    const before = checks.length + health.length + alerts.length + targets.length;
    checks = checks.filter((c) => c.at >= cut);
    targets = targets.filter((t) => t.at >= cut);
    health = health.filter((h) => h.at >= cut);
    alerts = alerts.filter((a) => a.resolvedAt === undefined || a.resolvedAt >= cut);
    return before - checks.length - health.length - alerts.length - targets.length;
  };

  return {
    get retentionDays() {
      return retentionDays;
    },
    setRetentionDays(days) {
      if (!Number.isFinite(days) || days < 1) return;
      retentionDays = Math.floor(days);
      applyRetention(options.now());
    },
    recordCheck: (record) =>
      void checks.push({ ...record, ...(record.latencyMs === undefined ? {} : { latencyMs: Math.round(record.latencyMs) }) }),
    checks: (clusterId, vmid, since, until = Number.MAX_SAFE_INTEGER) =>
      checks.filter((c) => c.clusterId === clusterId && c.vmid === vmid && inRange(c.at, since, until)).sort(byAt),
    latestChecks(clusterId) {
      const latest = new Map<number, CheckRecord>();
      for (const c of checks) if (c.clusterId === clusterId && c.at >= (latest.get(c.vmid)?.at ?? -Infinity)) latest.set(c.vmid, c);
      return [...latest.values()].sort((a, b) => a.vmid - b.vmid);
    },
    recordTargetCheck: (record) => void targets.push({ ...record }),
    targetChecks: (clusterId, vmid, since, until = Number.MAX_SAFE_INTEGER) =>
      targets.filter((t) => t.clusterId === clusterId && t.vmid === vmid && inRange(t.at, since, until)).sort(byAt),
    recordNodeHealth: (record) => void health.push({ ...record }),
    nodeHealth: (clusterId, node, since, until = Number.MAX_SAFE_INTEGER) =>
      health.filter((h) => h.clusterId === clusterId && h.node === node && inRange(h.at, since, until)).sort(byAt),
    raiseAlert(alert) {
      const open = openAlert(alert.rule, alert.clusterId, alert.target);
      if (open) return { alert: { ...open }, raised: false };
      const created: AlertRecord = { ...alert, id: nextId++ };
      alerts.push(created);
      return { alert: { ...created }, raised: true };
    },
    resolveAlert(rule, clusterId, target, at) {
      const open = openAlert(rule, clusterId, target);
      if (!open) return undefined;
      open.resolvedAt = at;
      return { ...open };
    },
    acknowledgeAlert(id, at) {
      const alert = alerts.find((a) => a.id === id);
      if (!alert) return undefined;
      alert.acknowledgedAt ??= at;
      return { ...alert };
    },
    openAlerts: () =>
      alerts
        .filter((a) => a.resolvedAt === undefined)
        .sort((a, b) => b.raisedAt - a.raisedAt || b.id - a.id)
        .map((a) => ({ ...a })),
    recentAlerts: (since, limit) =>
      alerts
        .filter((a) => a.raisedAt >= since || (a.resolvedAt ?? -1) >= since)
        .sort((a, b) => touched(b) - touched(a) || b.id - a.id)
        .slice(0, limit)
        .map((a) => ({ ...a })),
    applyRetention,
    flush: () => undefined,
    status: () => ({ path: ':memory:', sizeBytes: 0, schemaVersion: 0, degraded }),
    close: () => undefined,
  };
}
