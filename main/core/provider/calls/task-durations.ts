/**
 * How long a Proxmox task is expected to take, learned per node, task type
 * and (for a clone) template, and when to look at a running task given that.
 *
 * The model is in memory, one per API client (task-watcher.ts keeps it). It
 * learns from what the watcher sees: a task was running at one look and had
 * ended at the next, so it ended inside that interval; the node's own
 * `starttime`/`endtime` (whole seconds) narrow it further. It is seeded from
 * the node's archive (`source=archive&typefilter=qmclone`) the first time a
 * clone is watched on that node, so an app that just started already knows
 * how long a clone of that template takes there.
 *
 * The schedule (`nextLook`) turns an expectation into look times: with
 * history, the first look at about 88 % of the expected time (or at the
 * early edge of what history allows; none once the model is settled, see
 * `settled`), then at the expected end, then a
 * spread apart, then backing off with doubling gaps capped by `maxGapMs`
 * (or 5 % of the expected time for long tasks). Without history, a
 * conservative fixed cadence: `coldGapMs` while the task is young, then
 * `maxGapMs`, then slower for very long waits.
 */
import { parseUpid } from '../../pve/upid';

export interface Expectation {
  /** The expected duration, ms from when the UPID came back. */
  expectedMs: number;
  /** How far the actual end tends to be from it (at least half the width of what the looks could tell). */
  spreadMs: number;
  samples: number;
}

export interface Observation {
  /** The best estimate of the duration (the middle of what was seen). */
  durationMs: number;
  /** Half the width of the interval the end is known to lie in. */
  halfWidthMs: number;
}

/** Which tasks share a duration: same node and type; for a clone also the template (the UPID's id). */
export function durationKey(upid: string): string {
  const u = parseUpid(upid);
  return `${u.node}/${u.type}/${u.type === 'qmclone' ? u.id : ''}`;
}

const KEEP = 8;

export class DurationModel {
  private readonly byKey = new Map<string, Observation[]>();

  observe(key: string, o: Observation): void {
    if (!(o.durationMs >= 0) || !Number.isFinite(o.durationMs)) return;
    const list = this.byKey.get(key) ?? [];
    list.push({ durationMs: o.durationMs, halfWidthMs: Math.max(0, o.halfWidthMs) });
    if (list.length > KEEP) list.splice(0, list.length - KEEP);
    this.byKey.set(key, list);
  }

  /**
   * A precision-weighted mean of the recent observations; the spread is the larger of their scatter
   * and their typical uncertainty, so a model learned from coarse looks never claims more than it saw.
   */
  expect(key: string): Expectation | undefined {
    const list = this.byKey.get(key);
    if (!list || list.length === 0) return undefined;
    const weights = list.map((o) => 1 / (o.halfWidthMs + 25) ** 2);
    const total = weights.reduce((a, b) => a + b, 0);
    const mean = list.reduce((a, o, i) => a + o.durationMs * weights[i]!, 0) / total;
    const scatter = Math.sqrt(list.reduce((a, o, i) => a + weights[i]! * (o.durationMs - mean) ** 2, 0) / total);
    const typicalHalfWidth = list.reduce((a, o, i) => a + o.halfWidthMs * weights[i]!, 0) / total;
    return { expectedMs: mean, spreadMs: Math.max(scatter, typicalHalfWidth), samples: list.length };
  }

  /** Everything learned, for the bench and tests. */
  snapshot(): Record<string, Expectation> {
    const out: Record<string, Expectation> = {};
    for (const key of this.byKey.keys()) out[key] = this.expect(key)!;
    return out;
  }
}

/** From a look at a task that had ended: what the looks and the node's own whole-second times say about its duration. */
export function observation(
  lastRunningMs: number,
  endedSeenMs: number,
  node?: { starttime?: number | undefined; endtime?: number | undefined },
): Observation {
  let lo = Math.max(0, lastRunningMs);
  let hi = Math.max(lo, endedSeenMs);
  if (node?.starttime !== undefined && node.endtime !== undefined) {
    // Both are floor(seconds): the duration lies within ±1 s of their difference; clocks do not enter.
    const d = (node.endtime - node.starttime) * 1000;
    const nlo = Math.max(lo, d - 1000);
    const nhi = Math.min(hi, d + 1000);
    if (nlo <= nhi) [lo, hi] = [nlo, nhi];
  }
  return { durationMs: (lo + hi) / 2, halfWidthMs: (hi - lo) / 2 };
}

/** From an archived task alone (the seed): whole seconds, so ±1 s. */
export function archivedObservation(starttime: number, endtime: number): Observation | undefined {
  if (!(endtime >= starttime)) return undefined;
  return { durationMs: Math.max(0, (endtime - starttime) * 1000), halfWidthMs: 1000 };
}

export interface LookSchedule {
  /** The smallest spread the schedule trusts, and the smallest gap between two looks at one task. */
  minGapMs: number;
  /** Without history: the gap between looks while the task is young. */
  coldGapMs: number;
  /** Without history: how long a task counts as young. */
  coldForMs: number;
  /** The usual longest gap between looks once a task is late (or old, without history). */
  maxGapMs: number;
}

/** The first look time (ms since the UPID came back) strictly after `elapsedMs`. */
export function nextLook(elapsedMs: number, expectation: Expectation | undefined, s: LookSchedule): number {
  for (const t of lookTimes(expectation, s)) if (t > elapsedMs + 0.5) return t;
  /* c8 ignore next */
  return Number.POSITIVE_INFINITY;
}

/** Learned from at least two runs, within the early look's margin: the look at the expected end comes first. */
export function settled(expectation: Expectation, spreadMs: number, expectedMs: number): boolean {
  return expectation.samples >= 2 && spreadMs <= 0.12 * expectedMs;
}

/** The planned look times in order (an endless generator). */
export function* lookTimes(expectation: Expectation | undefined, s: LookSchedule): Generator<number> {
  const minGap = Math.max(1, s.minGapMs);
  if (!expectation) {
    let t = 0;
    for (;;) {
      const gap = t < s.coldForMs ? s.coldGapMs : Math.max(s.maxGapMs, Math.min(5 * s.maxGapMs, t * 0.05));
      t += Math.max(minGap, gap);
      yield t;
    }
  }
  const e = Math.max(minGap, expectation.expectedMs);
  const spread = Math.max(minGap, 0.02 * e, expectation.spreadMs);
  const cap = Math.max(s.maxGapMs, Math.min(5 * s.maxGapMs, 0.05 * e), spread);
  // A model that has seen the task twice and is sure to within the early look's own margin (12 %) skips that look:
  // it would find the task running nearly every time (bench-core: the learned creates' wasted reads). A task that
  // got faster is then seen at its expected end, and its whole-second node times widen the model until it probes again.
  const first = settled(expectation, spread, e) ? e : Math.max(minGap, Math.min(0.88 * e, e - spread));
  yield first;
  let t = first;
  if (e - first >= minGap) yield (t = e);
  let gap = spread;
  for (let k = 0; ; k++) {
    t += gap;
    yield t;
    if (k >= 1) gap = Math.min(cap, gap * 2);
  }
}
