/**
 * Alerts you can tune (issue 23), as one pure rule the engine asks before it
 * raises anything: for a rule and a target, now,
 *
 * - off: the rule is switched off for this target (a per-proxy override);
 * - holdMs: raise only once the condition has held this long: the target's
 *   override, else the rule's hold-down, else none (the engine still honours
 *   a rule's own threshold, such as a node unreachable for 60 s: the longer
 *   of the two wins);
 * - quietUntil: the target is snoozed (until then) or muted (Infinity):
 *   nothing is raised meanwhile; a condition that still holds at the end is
 *   raised then.
 */
import type { AlertTuning } from '../../../shared/channels/alerts';
import type { AlertRuleId } from '../history/types';

export interface TuningSubject {
  rule: AlertRuleId;
  clusterId: string;
  target: string;
}

export interface TargetTuning {
  off: boolean;
  holdMs: number;
  quietUntil: number | undefined;
}

export const emptyTuning = (): AlertTuning => ({ holdDownMinutes: {}, overrides: [], snoozes: [] });

const sameTarget = (a: { clusterId: string; target: string }, b: { clusterId: string; target: string }) =>
  a.clusterId === b.clusterId && a.target === b.target;

/** When a snooze ends (ms); Infinity for a mute. */
export const snoozeEnd = (until: string | undefined) => (until === undefined ? Number.POSITIVE_INFINITY : Date.parse(until));

export function tuningFor(tuning: AlertTuning, subject: TuningSubject, now: number): TargetTuning {
  const override = tuning.overrides.find((o) => sameTarget(o, subject));
  const minutes = override?.holdDownMinutes ?? tuning.holdDownMinutes[subject.rule] ?? 0;
  const quietUntil = tuning.snoozes
    .filter((s) => sameTarget(s, subject))
    .map((s) => snoozeEnd(s.until))
    .filter((end) => end > now)
    .reduce<number | undefined>((latest, end) => Math.max(latest ?? end, end), undefined);
  return { off: override?.disabled?.includes(subject.rule) ?? false, holdMs: minutes * 60_000, quietUntil };
}

/** The tuning without the snoozes that have ended: what the lists show and what is written next. */
export function liveTuning(tuning: AlertTuning, now: number): AlertTuning {
  return { ...tuning, snoozes: tuning.snoozes.filter((s) => snoozeEnd(s.until) > now) };
}
