/**
 * The alerts' confirmation check (CheckSchedule.checkSoon): one extra check
 * of a proxy within the delay asked, then its regular turns on its phase
 * again; a proxy not on the schedule is left alone.
 */
import { describe, expect, it } from 'vitest';
import { CheckSchedule, nextSlot, phaseOf, type ScheduledProxy } from '../../../../main/services/checks/schedule';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';

const INTERVAL = 5 * 60_000;
/** Lets a finished check leave the running set (its promise settles on the next turns of the event loop). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const proxy: ScheduledProxy = { key: 'c1/105', clusterId: 'c1', vmid: 105, node: 'pve1' };

describe('a confirmation check soon after a failure', () => {
  it('runs once within the delay, and the next turns stay on the phase', async () => {
    const timers = new ManualTimers();
    const runs: number[] = [];
    const schedule = new CheckSchedule({
      timers,
      intervalMs: INTERVAL,
      concurrency: 4,
      targets: () => [proxy],
      run: async () => void runs.push(timers.now()),
    });
    schedule.refresh();
    const phase = phaseOf(proxy.key, INTERVAL);
    const first = nextSlot(phase, INTERVAL, 0);
    timers.advance(first);
    await settle();
    expect(runs).toEqual([first]);
    schedule.checkSoon(proxy.key, 30_000);
    timers.advance(30_000);
    await settle();
    expect(runs).toEqual([first, first + 30_000]);
    timers.advance(INTERVAL - 30_000);
    await settle();
    expect(runs).toEqual([first, first + 30_000, first + INTERVAL]);
    schedule.checkSoon('c1/999', 1_000); // not scheduled: nothing
    timers.advance(1_000);
    expect(runs).toHaveLength(3);
    schedule.stop();
  });
});
