/** The learned-duration model and the look schedule it drives (task-durations.ts). */
import { describe, expect, it } from 'vitest';
import { DurationModel, durationKey, lookTimes, nextLook, observation, type LookSchedule } from '../../../main/core/provider/calls/task-durations';
import { lookScheduleOf } from '../../../main/core/provider/calls/task-watcher';
import { defaultBudgets } from '../../../main/core/provider/rules/budgets';

const schedule: LookSchedule = lookScheduleOf(defaultBudgets);
const first = (n: number, exp?: Parameters<typeof lookTimes>[0]) => {
  const out: number[] = [];
  for (const t of lookTimes(exp, schedule)) {
    out.push(Math.round(t));
    if (out.length === n) break;
  }
  return out;
};
/** How many looks it takes to see a task that ends at `endMs`, and how late the last one is. */
function looksUntil(endMs: number, exp?: Parameters<typeof lookTimes>[0]) {
  let n = 0;
  for (const t of lookTimes(exp, schedule)) {
    n++;
    if (t >= endMs) return { looks: n, lateMs: t - endMs };
  }
  throw new Error('unreachable');
}

describe('durationKey', () => {
  it('keys a clone by node, type and template; other tasks by node and type', () => {
    expect(durationKey('UPID:pv1-1:0010F9DC:02801DA1:6AB37871:qmclone:9001:op@pve!desk:')).toBe('pv1-1/qmclone/9001');
    expect(durationKey('UPID:pv1-2:0010F9DC:02801DA1:6AB37871:qmstart:183309:op@pve!desk:')).toBe('pv1-2/qmstart/');
  });
});

describe('the look schedule', () => {
  it('without history looks at a conservative fixed cadence: twice youngPollMs while young, then oldPollMs', () => {
    expect(first(3)).toEqual([500, 1000, 1500]);
    const late = [...first(13)].slice(10);
    expect(late).toEqual([6000, 7000, 8000]);
  });

  it('with one run learned looks first at about 88 % of the expected time, then at it, then a spread apart', () => {
    const exp = { expectedMs: 3000, spreadMs: 60, samples: 1 };
    expect(first(4, exp)).toEqual([2640, 3000, 3060, 3120]);
    expect(nextLook(0, exp, schedule)).toBe(2640);
    expect(Math.round(nextLook(2640, exp, schedule))).toBe(3000);
  });

  it('settled (two runs or more, spread within the early look’s 12 %) looks first at the expected end', () => {
    expect(first(3, { expectedMs: 3000, spreadMs: 60, samples: 3 })).toEqual([3000, 3060, 3120]);
    expect(first(2, { expectedMs: 3000, spreadMs: 360, samples: 2 })).toEqual([3000, 3360]);
    // Wider than the margin, or one run only: the early look stays.
    expect(first(2, { expectedMs: 3000, spreadMs: 400, samples: 5 })).toEqual([2600, 3000]);
    expect(first(2, { expectedMs: 1000, spreadMs: 50, samples: 1 })).toEqual([880, 1000]);
  });

  it('starts at the early edge of what history allows when the spread is wide', () => {
    expect(first(2, { expectedMs: 3000, spreadMs: 1000, samples: 1 })).toEqual([2000, 3000]);
  });

  it('backs off after the expected end with doubling gaps, capped', () => {
    for (const samples of [1, 3]) {
      const looks = first(12, { expectedMs: 3000, spreadMs: 50, samples });
      const fromEnd = looks.slice(looks.indexOf(3000));
      const gaps = fromEnd.slice(1).map((t, i) => t - fromEnd[i]!);
      expect(gaps.slice(0, 5)).toEqual([60, 60, 120, 240, 480]);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(1000);
    }
  });

  it('sees a task that ends as expected in one look once settled, two or three before, a few dozen ms late', () => {
    const settledExp = { expectedMs: 3000, spreadMs: 60, samples: 3 };
    expect(looksUntil(2990, settledExp)).toEqual({ looks: 1, lateMs: 10 });
    expect(looksUntil(3050, settledExp)).toEqual({ looks: 2, lateMs: 10 });
    const once = { expectedMs: 3000, spreadMs: 60, samples: 1 };
    expect(looksUntil(2990, once)).toEqual({ looks: 2, lateMs: 10 });
    expect(looksUntil(3050, once).looks).toBe(3);
    expect(looksUntil(3050, once).lateMs).toBeLessThanOrEqual(60);
    // Without history the same task costs seven looks.
    expect(looksUntil(3050).looks).toBe(7);
  });

  it('keeps looking at a task twice as long as expected, without flooding', () => {
    const { looks } = looksUntil(6000, { expectedMs: 3000, spreadMs: 60, samples: 3 });
    expect(looks).toBeLessThanOrEqual(10);
  });
});

describe('the duration model', () => {
  it('learns from what the looks saw, narrowed by the node whole seconds', () => {
    const o = observation(2500, 3000, { starttime: 100, endtime: 101 });
    // Looks: ended in (2.5 s, 3 s]; node: within ±1 s of 1 s, so (0, 2 s]: no overlap, looks win.
    expect(o).toEqual({ durationMs: 2750, halfWidthMs: 250 });
    expect(observation(2500, 3500, { starttime: 100, endtime: 102 })).toEqual({ durationMs: 2750, halfWidthMs: 250 });
  });

  it('weighs precise observations over coarse ones and reports their scatter as the spread', () => {
    const m = new DurationModel();
    m.observe('k', { durationMs: 2000, halfWidthMs: 1000 }); // an archived task, whole seconds
    m.observe('k', { durationMs: 3020, halfWidthMs: 30 });
    m.observe('k', { durationMs: 2980, halfWidthMs: 30 });
    const e = m.expect('k')!;
    expect(e.expectedMs).toBeGreaterThan(2950);
    expect(e.expectedMs).toBeLessThan(3050);
    expect(e.spreadMs).toBeLessThan(200);
    expect(m.expect('other')).toBeUndefined();
  });
});
