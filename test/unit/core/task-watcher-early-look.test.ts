/**
 * Issue 11 (docs/performance.md, "a listing that just saw a task running
 * counts as that task's early look"): tasks started together have their
 * early looks a few ms apart; a listing that sees one running less than a
 * listing's gap before its own early look stands in for that look, so the
 * node gets one request where it got two. The look at the expected end is
 * never skipped. Fake timers and a fake listing: the look times are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PveApi } from '../../../main/core/pve/api';
import { formatUpid } from '../../../main/core/pve/upid';
import { durationKey } from '../../../main/core/provider/calls/task-durations';
import { TaskWatcher } from '../../../main/core/provider/calls/task-watcher';

const T0 = 1_700_000_000_000;
// youngPollMs 250: a listing's gap (the bucket's refill) is 250 ms.
const schedule = { youngPollMs: 250, youngForMs: 5_000, oldPollMs: 1_000 };

beforeEach(() => vi.useFakeTimers({ now: T0 }));
afterEach(() => vi.useRealTimers());

function world() {
  const ends = new Map<string, number>();
  const looks: number[] = [];
  const api = {
    nodeTasks: async (_node: string, q: { source?: string }) => {
      if (q.source !== 'all') return [];
      looks.push(Date.now() - T0);
      return [...ends].map(([upid, end]) =>
        Date.now() >= end ? { upid, status: 'OK', starttime: 1, endtime: 2 } : { upid, status: 'RUNNING' },
      );
    },
    taskStatus: async () => {
      throw new Error('no status call expected');
    },
  } as unknown as PveApi;
  const watcher = new TaskWatcher(api);
  let pid = 1;
  const task = (endsAt: number) => {
    const upid = formatUpid({ node: 'pv1-1', pid: pid++, pstart: 1, starttime: 1, type: 'imgcopy', id: '', user: 'desk@pve!t' });
    ends.set(upid, T0 + endsAt);
    return upid;
  };
  return { watcher, looks, task };
}

describe('the task watcher’s early looks', () => {
  it('lets one listing stand in for a second task’s early look due just after it, but not for its look at the expected end', async () => {
    const { watcher, looks, task } = world();
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
    const { watcher, looks, task } = world();
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
