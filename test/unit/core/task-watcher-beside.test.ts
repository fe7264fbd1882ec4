/**
 * Issue 21: a wait beside another (the seed's upload beside its clone,
 * seed-beside-clone.ts) makes no looks of its own while the other is waited
 * on: the clone's listings see the upload too, so the node gets one read
 * where it got two. Once the other ends, a wait still running is looked at
 * at once, since its end is now what the caller waits for. Fake timers and
 * a fake listing: the look times are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listingWorld, schedule, T0 } from '../../support/listing-world';
import { durationKey } from '../../../main/core/provider/calls/task-durations';
import type { Companion } from '../../../main/core/provider/calls/task-watcher';

beforeEach(() => vi.useFakeTimers({ now: T0 }));
afterEach(() => vi.useRealTimers());

describe('a wait beside another', () => {
  it('is seen by the other’s looks only: the upload beside a clone costs the node no read of its own', async () => {
    const { watcher, looks, task } = listingWorld();
    const clone = task(2990, 'qmclone');
    const upload = task(600, 'imgcopy');
    // Both learned, from two runs each: the clone is looked at at its expected end (3000), the upload would be at 600.
    for (let i = 0; i < 2; i++) {
      watcher.model.observe(durationKey(clone), { durationMs: 3000, halfWidthMs: 20 });
      watcher.model.observe(durationKey(upload), { durationMs: 600, halfWidthMs: 20 });
    }
    const companion: Companion = { upid: clone };
    const waits = [
      watcher.wait(clone, { budgetMs: 10_000, what: 'clone', schedule }),
      watcher.wait(upload, { budgetMs: 10_000, what: 'upload', schedule, beside: companion }),
    ];
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await Promise.all(waits)).toEqual(['OK', 'OK']);
    expect(looks).toEqual([3000]);
  });

  it('is looked at on its own schedule without the other, and at once when the other ends first', async () => {
    const { watcher, looks, task } = listingWorld();
    const upload = task(1400, 'imgcopy');
    const clone = task(990, 'qmclone');
    for (let i = 0; i < 2; i++) {
      watcher.model.observe(durationKey(clone), { durationMs: 1000, halfWidthMs: 20 });
      watcher.model.observe(durationKey(upload), { durationMs: 600, halfWidthMs: 20 });
    }
    // The clone is not waited on yet (its copy slot is busy, say): the upload plans its own look at 600.
    const companion: Companion = {};
    const waits = [watcher.wait(upload, { budgetMs: 10_000, what: 'upload', schedule, beside: companion })];
    await vi.advanceTimersByTimeAsync(100);
    companion.upid = clone;
    waits.push(watcher.wait(clone, { budgetMs: 10_000, what: 'clone', schedule }));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await Promise.all(waits)).toEqual(['OK', 'OK']);
    // Held from 100 on: no look at 600. The clone's end (its look at 1100: 1000 after its wait began) saw the upload
    // running; from then on the upload keeps its own schedule: past its 600, the backing-off looks (…, 1000, 1400).
    expect(looks).toEqual([1100, 1400]);
  });
});
