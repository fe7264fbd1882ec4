/**
 * Issue 11 (docs/performance.md, "a listing that just saw a task running
 * counts as that task's early look"): tasks started together have their
 * early looks a few ms apart; a listing that sees one running less than a
 * listing's gap before its own early look stands in for that look, so the
 * node gets one request where it got two. The look at the expected end is
 * never skipped. Fake timers and a fake listing: the look times are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listingWorld, schedule, T0 } from '../../support/listing-world';
import { durationKey } from '../../../main/core/provider/calls/task-durations';

beforeEach(() => vi.useFakeTimers({ now: T0 }));
afterEach(() => vi.useRealTimers());

describe('the task watcher’s early looks', () => {
  it('lets one listing stand in for a second task’s early look due just after it, but not for its look at the expected end', async () => {
    const { watcher, looks, task } = listingWorld();
    const a = task(990);
    const b = task(1090);
    // Learned: such a task takes 1000 ms (spread 50 ms): an early look at 880 ms, then one at 1000 ms.
    watcher.model.observe(durationKey(a), { durationMs: 1000, halfWidthMs: 10 });
    const waits = [watcher.wait(a, { budgetMs: 10_000, what: 'a', schedule })];
    await vi.advanceTimersByTimeAsync(100);
    waits.push(watcher.wait(b, { budgetMs: 10_000, what: 'b', schedule }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await Promise.all(waits)).toEqual(['OK', 'OK']);
    // a's early look (880) saw b running 100 ms before b's own (980): b's is skipped. a's end (1000) and b's
    // expected end (1100) are looked at.
    expect(looks).toEqual([880, 1000, 1100]);
  });

  it('keeps a second task’s early look that is further away than a listing’s gap', async () => {
    const { watcher, looks, task } = listingWorld();
    const a = task(990);
    const b = task(1390);
    watcher.model.observe(durationKey(a), { durationMs: 1000, halfWidthMs: 10 });
    const waits = [watcher.wait(a, { budgetMs: 10_000, what: 'a', schedule })];
    await vi.advanceTimersByTimeAsync(400);
    waits.push(watcher.wait(b, { budgetMs: 10_000, what: 'b', schedule }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await Promise.all(waits)).toEqual(['OK', 'OK']);
    expect(looks).toEqual([880, 1000, 1280, 1400]);
  });
});
