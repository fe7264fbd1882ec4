/**
 * The check schedule on a hand-moved clock: checks spread over the interval,
 * each proxy once per interval, never more than the concurrency limit at
 * once, new proxies at their next phase, removed ones forgotten, and a pause
 * (sleep, battery) that resumes without a burst of the missed checks.
 */
import { describe, expect, it } from 'vitest';
import { CheckSchedule, nextSlot, phaseOf, type ScheduledProxy } from '../../../../main/services/checks/schedule';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';

const MINUTE = 60_000;

function proxies(n: number, clusterId = 'c'): ScheduledProxy[] {
  return Array.from({ length: n }, (_, i) => ({ key: `${clusterId}/${100 + i}`, clusterId, vmid: 100 + i, node: 'pve1' }));
}

/** A schedule over a mutable list of targets; each run is logged and lasts `runMs` of the manual clock. */
function harness(opts: { targets: ScheduledProxy[]; intervalMs: number; concurrency: number; runMs?: number }) {
  const timers = new ManualTimers();
  const targets = [...opts.targets];
  const starts: { key: string; at: number }[] = [];
  const aborted: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const schedule = new CheckSchedule({
    timers,
    intervalMs: opts.intervalMs,
    concurrency: opts.concurrency,
    targets: () => targets,
    run: (target, signal) => {
      starts.push({ key: target.key, at: timers.now() });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return new Promise<void>((resolve) => {
        const done = () => {
          inFlight--;
          resolve();
        };
        signal.addEventListener('abort', () => {
          aborted.push(target.key);
          timers.clearTimeout(handle);
          done();
        });
        const handle = timers.setTimeout(done, opts.runMs ?? 0);
      });
    },
  });
  /** Moves the clock in steps, letting finished runs hand their slot on between steps. */
  async function advance(ms: number, step = 1000): Promise<void> {
    for (let t = 0; t < ms; t += step) {
      timers.advance(Math.min(step, ms - t));
      await new Promise((r) => setImmediate(r));
    }
  }
  return { timers, targets, starts, aborted, schedule, advance, maxInFlight: () => maxInFlight };
}

const countBy = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());

describe('the check schedule', () => {
  it('spreads 100 proxies over the interval and checks each exactly once per interval, at the same phase each time', async () => {
    const h = harness({ targets: proxies(100), intervalMs: 5 * MINUTE, concurrency: 100 });
    h.schedule.refresh();
    await h.advance(15 * MINUTE);

    for (let k = 0; k < 3; k++) {
      const inWindow = h.starts.filter((s) => s.at >= k * 5 * MINUTE && s.at < (k + 1) * 5 * MINUTE).map((s) => s.key);
      const counts = countBy(inWindow);
      expect(counts.size).toBe(100);
      expect([...counts.values()].every((c) => c === 1)).toBe(true);
    }
    // Never all at once: in any 10-second bucket only a handful start, and most 30-second buckets have some.
    const buckets = countBy(h.starts.map((s) => String(Math.floor(s.at / 10_000))));
    expect(Math.max(...buckets.values())).toBeLessThanOrEqual(10);
    const halfMinutes = new Set(h.starts.filter((s) => s.at < 5 * MINUTE).map((s) => Math.floor(s.at / 30_000)));
    expect(halfMinutes.size).toBeGreaterThanOrEqual(8);
    // A proxy's phase is its own and stable: the same offset in every interval.
    const first = h.starts.filter((s) => s.key === 'c/142').map((s) => s.at % (5 * MINUTE));
    expect(new Set(first).size).toBe(1);
  });

  it('never runs more checks at once than the limit, and still gets to every proxy', async () => {
    // 40 checks of 10 s each per minute is more than 4 at a time can do within a minute: the queue is always full.
    const h = harness({ targets: proxies(40), intervalMs: MINUTE, concurrency: 4, runMs: 10_000 });
    h.schedule.refresh();
    await h.advance(5 * MINUTE);
    expect(h.maxInFlight()).toBe(4);
    expect(countBy(h.starts.map((s) => s.key)).size).toBe(40);
  });

  it('follows a new limit at once', async () => {
    const h = harness({ targets: proxies(40), intervalMs: MINUTE, concurrency: 4, runMs: 10_000 });
    h.schedule.refresh();
    await h.advance(MINUTE);
    h.schedule.configure({ intervalMs: MINUTE, concurrency: 1 });
    const before = h.starts.length;
    await h.advance(10 * 10_000);
    // One slot: at most one start per 10-second run once the four already running have ended.
    expect(h.starts.length - before).toBeLessThanOrEqual(10);
    expect(h.schedule.inFlight).toBeLessThanOrEqual(1);
  });

  it('checks a new proxy at its next phase, and forgets a removed or stopped one', async () => {
    const h = harness({ targets: proxies(2), intervalMs: 5 * MINUTE, concurrency: 4 });
    h.schedule.refresh();
    await h.advance(2 * MINUTE);

    const added: ScheduledProxy = { key: 'c/900', clusterId: 'c', vmid: 900, node: 'pve2' };
    h.targets.push(added);
    h.schedule.refresh();
    const due = h.schedule.nextRunAt('c/900')!;
    expect(due).toBe(nextSlot(phaseOf('c/900', 5 * MINUTE), 5 * MINUTE, h.timers.now()));
    expect(due).toBeGreaterThanOrEqual(h.timers.now());
    await h.advance(5 * MINUTE);
    expect(h.starts.filter((s) => s.key === 'c/900').map((s) => s.at)).toEqual([due]);

    // c/100 is deleted, c/101 stops: neither is checked again.
    h.targets.splice(0, 2);
    h.schedule.refresh();
    const before = h.starts.length;
    await h.advance(15 * MINUTE);
    expect(h.starts.slice(before).map((s) => s.key)).toEqual(['c/900', 'c/900', 'c/900']);
    expect(h.schedule.nextRunAt('c/100')).toBeUndefined();
  });

  it('pauses while asleep (aborting the checks in flight) and resumes at each phase, without a burst of missed checks', async () => {
    const h = harness({ targets: proxies(100), intervalMs: 5 * MINUTE, concurrency: 4, runMs: 3_000 });
    h.schedule.refresh();
    await h.advance(MINUTE);
    const running = h.schedule.inFlight;
    h.schedule.pause('suspended');
    expect(h.aborted.length).toBe(running);

    const before = h.starts.length;
    await h.advance(30 * MINUTE);
    expect(h.starts.length).toBe(before);

    h.schedule.resume('suspended');
    const resumedAt = h.timers.now();
    await h.advance(10_000);
    // Six intervals were missed; what starts now is only what is due in these 10 s (about 100 × 10/300), not 600 checks.
    expect(h.starts.length - before).toBeLessThanOrEqual(10);
    await h.advance(5 * MINUTE - 10_000);
    const after = countBy(h.starts.filter((s) => s.at >= resumedAt).map((s) => s.key));
    expect(after.size).toBe(100);
    expect([...after.values()].every((c) => c === 1)).toBe(true);
  });

  it('after a sleep no power event told of (browser mode), skips the missed turns instead of running them all at wake', async () => {
    // A clock that can freeze: time jumps 30 minutes, then the overdue timer fires late, as after a real sleep.
    let time = 0;
    const pending = new Set<{ at: number; fn: () => void }>();
    const timers = {
      now: () => time,
      setTimeout: (fn: () => void, ms: number) => {
        const t = { at: time + ms, fn };
        pending.add(t);
        return t;
      },
      clearTimeout: (t: unknown) => void pending.delete(t as { at: number; fn: () => void }),
      fire(until: number) {
        for (;;) {
          const next = [...pending].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
          if (!next) break;
          pending.delete(next);
          time = Math.max(time, next.at);
          next.fn();
        }
        time = until;
      },
    };
    const starts: number[] = [];
    const schedule = new CheckSchedule({
      timers,
      intervalMs: 5 * MINUTE,
      concurrency: 100,
      targets: () => proxies(100),
      run: async () => void starts.push(time),
    });
    schedule.refresh();
    timers.fire(5 * MINUTE);
    await new Promise((r) => setImmediate(r));
    expect(starts.length).toBe(100);

    time += 30 * MINUTE; // asleep: no timer fires
    timers.fire(time + 1000);
    await new Promise((r) => setImmediate(r));
    expect(starts.length).toBeLessThanOrEqual(100 + 5);
    for (let t = 0; t < 5 * MINUTE; t += 1000) {
      timers.fire(time + 1000);
      await new Promise((r) => setImmediate(r));
    }
    expect(starts.length).toBeGreaterThanOrEqual(195);
    expect(starts.length).toBeLessThanOrEqual(205);
  });

  it('stays paused until every reason to pause is gone', async () => {
    const h = harness({ targets: proxies(10), intervalMs: MINUTE, concurrency: 4 });
    h.schedule.refresh();
    h.schedule.pause('on-battery');
    h.schedule.pause('suspended');
    h.schedule.resume('suspended');
    await h.advance(3 * MINUTE);
    expect(h.starts).toEqual([]);
    h.schedule.resume('on-battery');
    await h.advance(MINUTE);
    expect(h.starts.length).toBe(10);
  });
});
