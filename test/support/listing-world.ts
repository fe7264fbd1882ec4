/**
 * A node's task listing for the task watcher's fake-timer tests: each task
 * registered with the (fake) time it ends at, every `source=all` listing
 * recorded as a look (ms after T0), no status call expected. The look times
 * are then exact (task-watcher-early-look, task-watcher-beside).
 */
import type { PveApi } from '../../main/core/pve/api';
import { formatUpid } from '../../main/core/pve/upid';
import { TaskWatcher } from '../../main/core/provider/calls/task-watcher';

export const T0 = 1_700_000_000_000;
/** youngPollMs 250: a listing's gap (the bucket's refill) is 250 ms. */
export const schedule = { youngPollMs: 250, youngForMs: 5_000, oldPollMs: 1_000 };

export function listingWorld() {
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
  /** A task on pv1-1 that ends `endsAt` ms after T0; a clone's is of template 9000. */
  const task = (endsAt: number, type = 'imgcopy') => {
    const upid = formatUpid({
      node: 'pv1-1',
      pid: pid++,
      pstart: 1,
      starttime: 1,
      type,
      id: type === 'qmclone' ? '9000' : '',
      user: 'desk@pve!t',
    });
    ends.set(upid, T0 + endsAt);
    return upid;
  };
  return { watcher, looks, task };
}
