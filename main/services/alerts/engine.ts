/**
 * The alert engine's one rule of life: a condition per rule and target is
 * either active (raise) or clear (resolve). The history database keeps one
 * open alert per rule and target (HistoryStore.raiseAlert), so an alert is
 * raised once and announced once until it resolves, and it survives a
 * restart: the open alerts are read back at start, and one whose condition
 * cleared while the app was closed resolves at its first evaluation.
 *
 * A condition that must hold for a while first (a node unreachable for 60 s)
 * is held as pending with the time it began; `tick` raises it once its time
 * is up, so the alert does not wait for the next input event.
 *
 * The user's tuning (tuning.ts) is asked at each look: a rule switched off for
 * the target resolves it, a hold-down lengthens the wait, and a snoozed or
 * muted target keeps its condition pending, raised when the snooze ends.
 */
import type { AlertRecord, AlertRuleId, HistoryStore } from '../history/types';
import type { TargetTuning, TuningSubject } from './tuning';

export interface AlertEvent {
  kind: 'raised' | 'resolved';
  alert: AlertRecord;
}

/** What a condition names: the rule, the cluster and the target (with its words). */
export interface AlertSubject {
  rule: AlertRuleId;
  clusterId: string;
  target: string;
  label: string;
}

export interface ActiveCondition {
  reason: string;
  hint: string;
  /** Raise only once the condition has held this long (ms); 0 or absent: at once. */
  holdMs?: number;
}

export interface AlertEngineOptions {
  store: HistoryStore;
  now: () => number;
  /** Each raise and each resolve, once; the delivery must not throw or block. */
  onEvent: (event: AlertEvent) => void;
  /** The user's tuning for a rule and target now; absent: none. */
  tuning?: (subject: TuningSubject) => TargetTuning;
}

interface Pending extends AlertSubject, ActiveCondition {
  since: number;
}

const keyOf = (rule: string, clusterId: string, target: string) => `${rule}\u0000${clusterId}\u0000${target}`;

export class AlertEngine {
  private readonly open = new Map<string, AlertRecord>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: AlertEngineOptions) {
    for (const alert of options.store.openAlerts()) this.open.set(keyOf(alert.rule, alert.clusterId, alert.target), alert);
  }

  /** The condition holds: raise now, or once it has held for `holdMs`. A condition still pending keeps its start. */
  active(subject: AlertSubject, condition: ActiveCondition): void {
    const key = keyOf(subject.rule, subject.clusterId, subject.target);
    if (this.tuned(subject).off) return this.clear(subject.rule, subject.clusterId, subject.target);
    if (this.open.has(key)) return; // raised already: no second notification until it resolves
    const since = this.pending.get(key)?.since ?? this.options.now();
    this.pending.set(key, { ...subject, ...condition, since });
    this.raiseIfDue(key);
  }

  /** The condition does not hold: forget a pending one, resolve an open one (once). */
  clear(rule: AlertRuleId, clusterId: string, target: string): void {
    const key = keyOf(rule, clusterId, target);
    this.pending.delete(key);
    if (!this.open.has(key)) return;
    this.open.delete(key);
    const resolved = this.options.store.resolveAlert(rule, clusterId, target, this.options.now());
    if (resolved) this.options.onEvent({ kind: 'resolved', alert: resolved });
  }

  /** Raises the pending conditions whose time is up, and resolves open alerts whose rule the tuning switched off. */
  tick(): void {
    for (const alert of [...this.open.values()]) if (this.tuned(alert).off) this.clear(alert.rule, alert.clusterId, alert.target);
    for (const key of [...this.pending.keys()]) this.raiseIfDue(key);
  }

  /** The open alerts (all rules and clusters). */
  openAlerts(): AlertRecord[] {
    return [...this.open.values()];
  }

  private tuned(subject: TuningSubject): TargetTuning {
    return this.options.tuning?.(subject) ?? { off: false, holdMs: 0, quietUntil: undefined };
  }

  isOpen(rule: AlertRuleId, clusterId: string, target: string): boolean {
    return this.open.has(keyOf(rule, clusterId, target));
  }

  /** The open alerts of a rule (all clusters), e.g. to resolve them when the rule is switched off. */
  openOf(rule: AlertRuleId): AlertRecord[] {
    return [...this.open.values()].filter((a) => a.rule === rule);
  }

  /** Open alerts whose target matches, e.g. every alert of a deleted proxy. */
  openMatching(clusterId: string, target: string): AlertRecord[] {
    return [...this.open.values()].filter((a) => a.clusterId === clusterId && a.target === target);
  }

  private raiseIfDue(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    const now = this.options.now();
    const tuned = this.tuned(p);
    if (tuned.off) return void this.pending.delete(key);
    if (now - p.since < Math.max(p.holdMs ?? 0, tuned.holdMs)) return;
    if (tuned.quietUntil !== undefined && tuned.quietUntil > now) return; // snoozed: still pending, raised when it ends
    this.pending.delete(key);
    const { alert, raised } = this.options.store.raiseAlert({
      rule: p.rule,
      clusterId: p.clusterId,
      target: p.target,
      label: p.label,
      raisedAt: now,
      reason: p.reason,
      hint: p.hint,
    });
    this.open.set(key, alert);
    if (raised) this.options.onEvent({ kind: 'raised', alert });
  }
}
