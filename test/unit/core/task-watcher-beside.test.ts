/**
 * Issue 21: a wait beside another (the seed's upload beside its clone,
 * seed-beside-clone.ts) makes no looks of its own while the other is waited
 * on: the clone's listings see the upload too, so the node gets one read
 * where it got two. Once the other ends, a wait still running is looked at
 * at once, since its end is now what the caller waits for. Fake timers and
 * a fake listing: the look times are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PveApi } from '../../../main/core/pve/api';
import { formatUpid } from '../../../main/core/pve/upid';
import { durationKey } from '../../../main/core/provider/calls/task-durations';
import { TaskWatcher, type Companion } from '../../../main/core/provider/calls/task-watcher';

const T0 = 1_700_000_000_000;
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
  const task = (type: string, endsAt: number) => {
    const upid = formatUpid({ node: 'pv1-1', pid: pid++, pstart: 1, starttime: 1, type, id: type === 'qmclone' ? '9000' : '', user: 'desk@pve!t' });
    ends.set(upid, T0 + endsAt);
    return upid;
  };
  return { watcher, looks, task };
}

describe('a wait beside another', () => {
  it('is seen by the other’s looks only: the upload beside a clone costs the node no read of its own', async () => {
    const { watcher, looks, task } = world();
    const clone = task('qmclone', 2990);
    const upload = task('imgcopy', 600);
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
    const { watcher, looks, task } = world();
    const upload = task('imgcopy', 1400);
    const clone = task('qmclone', 990);
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
