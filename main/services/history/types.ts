/**
 * What the history database keeps, and the port the services write and read
 * it through (issue 15). The SQLite implementation lives beside this file
 * (history-db.ts); the scheduled checks, the node health service and the
 * alert engine depend only on this interface, so they are tested with the
 * real database or an in-memory one without knowing SQL.
 *
 * Times are epoch milliseconds. Writes are batched by the store (a crash
 * loses at most the last unflushed batch); reads see every write made
 * before them in this process, flushed or not.
 */

/** One scheduled or manual egress check of one proxy. */
export interface CheckRecord {
  clusterId: string;
  vmid: number;
  /** When the check finished. */
  at: number;
  /** The proxy carried the request and the target answered. */
  ok: boolean;
  /** Stored in whole milliseconds (rounded), like NodeHealthRecord.latencyMs. */
  latencyMs?: number;
  httpStatus?: number;
  /** The address the echo URL saw the request come from. */
  egressAddress?: string;
  /** Where a failed check stopped. */
  stage?: 'connect' | 'handshake' | 'request';
  /** A failed check's reason, in words. */
  problem?: string;
  /** 'scheduled' or 'manual' (the user pressed Test). */
  origin: 'scheduled' | 'manual';
}

/** Issue 24: one target fetched through a proxy after its egress check (a target failing never fails the check). */
export interface TargetCheckRecord {
  clusterId: string;
  vmid: number;
  /** The target's URL, as the user listed it. */
  url: string;
  at: number;
  /** The target answered, with a status below 400. */
  ok: boolean;
  httpStatus?: number;
  /** From sending the request to the answer's headers, whole milliseconds. */
  firstByteMs?: number;
  /** The whole fetch, answer read, whole milliseconds. */
  totalMs?: number;
  stage?: 'connect' | 'handshake' | 'request';
  /** A failed fetch's reason, in words (classified like a check's). */
  problem?: string;
  origin: 'scheduled' | 'manual';
}

/** One node health observation (what the health service decided at a check). */
export interface NodeHealthRecord {
  clusterId: string;
  node: string;
  at: number;
  /** The health reason (shared/channels/health.ts HealthReason), 'ok' when healthy. */
  reason: string;
  latencyMs?: number;
}

/** The alert rules a home lab wants; each has a user-settable threshold. */
export type AlertRuleId =
  | 'proxy-not-running'
  | 'egress-failing'
  | 'egress-address-changed'
  | 'egress-outside-expected'
  | 'egress-exit-shared'
  | 'target-unreachable'
  | 'node-unreachable'
  | 'seed-storage-low'
  | 'template-unsuitable';

/** A raised alert; resolved when its condition clears. One open alert per rule and target. */
export interface AlertRecord {
  id: number;
  rule: AlertRuleId;
  clusterId: string;
  /** What it is about, stable across raises: 'vm:105', 'node:pve1', 'storage:pve1/local', 'template:9000'. */
  target: string;
  /** A human label for the target ('proxy egress-a (105)'). */
  label: string;
  raisedAt: number;
  resolvedAt?: number;
  acknowledgedAt?: number;
  /** What happened, in plain words. */
  reason: string;
  /** What to do. */
  hint: string;
}

export interface HistoryStatus {
  /** The database file (in the app's data folder). */
  path: string;
  sizeBytes: number;
  schemaVersion: number;
  /** Set when a corrupt or unreadable file was moved aside at open: where it went and why. */
  movedAside?: { path: string; reason: string };
  /** Set when the database could not be opened at all: history runs in memory and this says why. */
  degraded?: string;
  /**
   * Set while history runs in memory because another program holds the file locked: the app tries the file again
   * in the background and moves this session's history into it once it opens (then this and `degraded` are gone).
   */
  reopening?: boolean;
}

export interface HistoryStore {
  recordCheck(record: CheckRecord): void;
  /** One proxy's checks in [sinceMs, untilMs], oldest first. Indexed: a 7-day read is cheap. */
  checks(clusterId: string, vmid: number, sinceMs: number, untilMs?: number): CheckRecord[];
  /** The latest check of every proxy of a cluster that has one. */
  latestChecks(clusterId: string): CheckRecord[];

  recordTargetCheck(record: TargetCheckRecord): void;
  /** One proxy's target fetches in [sinceMs, untilMs], oldest first. */
  targetChecks(clusterId: string, vmid: number, sinceMs: number, untilMs?: number): TargetCheckRecord[];

  recordNodeHealth(record: NodeHealthRecord): void;
  nodeHealth(clusterId: string, node: string, sinceMs: number, untilMs?: number): NodeHealthRecord[];

  /** Raise an alert unless one is open for the rule and target; returns the open alert and whether it is new. */
  raiseAlert(alert: Omit<AlertRecord, 'id' | 'resolvedAt' | 'acknowledgedAt'>): { alert: AlertRecord; raised: boolean };
  /** Resolve the open alert for the rule and target, if any; returns it when one was resolved. */
  resolveAlert(rule: AlertRuleId, clusterId: string, target: string, at: number): AlertRecord | undefined;
  acknowledgeAlert(id: number, at: number): AlertRecord | undefined;
  openAlerts(): AlertRecord[];
  /** Alerts raised or resolved since the time, newest first, at most `limit`. */
  recentAlerts(sinceMs: number, limit: number): AlertRecord[];

  /** Deletes what is older than the retention; returns the rows removed. Run by a job, also callable. */
  applyRetention(nowMs: number): number;
  /** Writes the pending batch now. */
  flush(): void;
  status(): HistoryStatus;
  close(): void;
}

/** The store plus what only the composition needs. */
export interface HistoryDatabase extends HistoryStore {
  /** Changes the retention (settings.changed) and applies it now. */
  setRetentionDays(days: number): void;
  readonly retentionDays: number;
}
