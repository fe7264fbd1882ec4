/**
 * The history's rows as SQLite returns them and the records they stand for
 * (types.ts): stages and origins are small integers, a missing value is NULL.
 * Rows are types, not interfaces, so node:sqlite's row type narrows to them.
 */
import type { AlertRecord, AlertRuleId, CheckRecord, NodeHealthRecord, TargetCheckRecord } from './types';

export const STAGES = ['connect', 'handshake', 'request'] as const;
export const ORIGINS = ['scheduled', 'manual'] as const;

export type CheckRow = {
  vmid: number;
  at: number;
  ok: number;
  latency_ms: number | null;
  http_status: number | null;
  address: string | null;
  problem: string | null;
  stage: number | null;
  origin: number;
};

/** A check as the whole-session read returns it (statements.ts allChecks). */
export type SessionCheckRow = CheckRow & { cluster: string };

export type TargetCheckRow = {
  vmid: number;
  url: string;
  at: number;
  ok: number;
  http_status: number | null;
  first_byte_ms: number | null;
  total_ms: number | null;
  stage: number | null;
  problem: string | null;
  origin: number;
};

/** A target fetch as the whole-session read returns it (statements.ts allTargetChecks). */
export type SessionTargetCheckRow = TargetCheckRow & { cluster: string };

export function targetCheckFromRow(clusterId: string, row: TargetCheckRow): TargetCheckRecord {
  const record: TargetCheckRecord = {
    clusterId,
    vmid: row.vmid,
    url: row.url,
    at: row.at,
    ok: row.ok === 1,
    origin: ORIGINS[row.origin] ?? 'scheduled',
  };
  if (row.http_status !== null) record.httpStatus = row.http_status;
  if (row.first_byte_ms !== null) record.firstByteMs = row.first_byte_ms;
  if (row.total_ms !== null) record.totalMs = row.total_ms;
  if (row.problem !== null) record.problem = row.problem;
  const stage = row.stage === null ? undefined : STAGES[row.stage];
  if (stage) record.stage = stage;
  return record;
}

export type NodeHealthRow = {
  at: number;
  reason: string;
  latency_ms: number | null;
};

/** A node health row as the whole-session read returns it (statements.ts allNodeHealth). */
export type SessionNodeHealthRow = NodeHealthRow & { cluster: string; node: string };

export type AlertRow = {
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
};

export function checkFromRow(clusterId: string, row: CheckRow): CheckRecord {
  const record: CheckRecord = { clusterId, vmid: row.vmid, at: row.at, ok: row.ok === 1, origin: ORIGINS[row.origin] ?? 'scheduled' };
  if (row.latency_ms !== null) record.latencyMs = row.latency_ms;
  if (row.http_status !== null) record.httpStatus = row.http_status;
  if (row.address !== null) record.egressAddress = row.address;
  if (row.problem !== null) record.problem = row.problem;
  const stage = row.stage === null ? undefined : STAGES[row.stage];
  if (stage) record.stage = stage;
  return record;
}

export function nodeHealthFromRow(clusterId: string, node: string, row: NodeHealthRow): NodeHealthRecord {
  const record: NodeHealthRecord = { clusterId, node, at: row.at, reason: row.reason };
  if (row.latency_ms !== null) record.latencyMs = row.latency_ms;
  return record;
}

export function alertFromRow(row: AlertRow): AlertRecord {
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

export const byAt = (a: { at: number }, b: { at: number }) => a.at - b.at;
