/**
 * The task watcher (main/core/provider/calls/task-watcher.ts) over the simulator through the real client:
 * every task waited on, on a node, is read from one `GET /nodes/{node}/tasks` per cycle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PveApi } from '../../../main/core/pve/api';
import { isProviderError } from '../../../main/core/provider/rules/errors';
import { isBudgetExhausted, TaskWatcher, taskWatcherFor } from '../../../main/core/provider/calls/task-watcher';
import { fastBudgets, simProvider, TEMPLATE_VMID, type SimProvider } from './sim-provider';

const LIST = '/nodes/{node}/tasks';
const STATUS = '/nodes/{node}/tasks/{upid}/status';
const schedule = { youngPollMs: 5, youngForMs: 100, oldPollMs: 20 };

let env: SimProvider;
let nextVmid = 700;

beforeAll(async () => {
  // Clones take 200 simulated s (200 ms real) so several overlap; everything else stays quick.
  env = await simProvider({ timeScale: 0.001, taskDurations: { qmclone: 200_000 }, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const count = (route: string) => env.sim.requests.records.filter((r) => r.route === route).length;

async function startClones(n: number): Promise<string[]> {
  const upids: string[] = [];
  for (let i = 0; i < n; i++) {
    const vmid = nextVmid++;
    upids.push(await env.client.clone('pv1-1', TEMPLATE_VMID, { newid: vmid, name: `proxy-w${vmid}`, description: 'x', full: 1 }));
  }
  return upids;
}

/** Waits on `n` concurrent clones with a fresh watcher; the task-state requests it took. */
async function waitOn(n: number, watcher = new TaskWatcher(env.client)) {
  const upids = await startClones(n);
  env.sim.requests.clear();
  const exits = await Promise.all(upids.map((upid) => watcher.wait(upid, { budgetMs: 10_000, what: upid, schedule })));
  return { exits, listings: count(LIST), statusCalls: count(STATUS), stats: watcher.stats()['pv1-1']! };
}

describe('the task watcher', () => {
  it('reads every task on a node from one listing per cycle, however many wait', async () => {
    const one = await waitOn(1);
    const six = await waitOn(6);
    expect(six.exits).toEqual(Array(6).fill('OK'));
    expect(six.statusCalls).toBe(0);
    // Six tasks cost the node what one costs it: one listing per cycle (plus, once, the history seed).
    expect(six.stats.listings + six.stats.seeds).toBe(six.listings);
    expect(six.listings).toBeLessThanOrEqual(one.listings + 2);
    // Each listing is the one request of its cycle: running and ended tasks at once, since the oldest waiter.
    const lists = env.sim.requests.records.filter((r) => r.route === LIST && r.query.source === 'all');
    expect(lists.every((r) => r.query.since !== undefined && r.status === 200)).toBe(true);
  });

  it('gives a failed task its exit status from the listing', async () => {
    const undo = env.sim.faults.failTask({ type: 'qmclone' }, 'task_status_stopped_error', 1);
    try {
      const { exits, statusCalls } = await waitOn(1);
      const expected = [...env.sim.tasks.tasks.values()].filter((t) => t.type === 'qmclone').at(-1)!.exitstatus;
      expect(exits[0]).not.toBe('OK');
      expect(exits[0]).toBe(expected);
      expect(statusCalls).toBe(0);
    } finally {
      undo();
    }
  });

  it('asks for the status of a task the listing does not show', async () => {
    const [hidden] = await startClones(1);
    // A listing that leaves the task out (another token's task, or cut off by the limit).
    const api = new Proxy(env.client, {
      get(target, prop, receiver) {
        if (prop !== 'nodeTasks') return Reflect.get(target, prop, receiver) as unknown;
        return async (...args: Parameters<NonNullable<PveApi['nodeTasks']>>) =>
          (await target.nodeTasks!(...args)).filter((e) => e.upid !== hidden);
      },
    }) as PveApi;
    env.sim.requests.clear();
    const exit = await new TaskWatcher(api).wait(hidden!, { budgetMs: 10_000, what: 'hidden', schedule });
    expect(exit).toBe('OK');
    expect(count(STATUS)).toBeGreaterThanOrEqual(1);
    expect(count(STATUS)).toBeLessThanOrEqual(count(LIST));
  });

  it('stops at once when the signal fires, and the node loop goes quiet', async () => {
    const undo = env.sim.faults.hangTask({ type: 'qmclone' }, 1);
    try {
      const [upid] = await startClones(1);
      const controller = new AbortController();
      const watcher = new TaskWatcher(env.client);
      const waiting = watcher.wait(upid!, { budgetMs: 60_000, what: 'the hung clone', signal: controller.signal, schedule });
      setTimeout(() => controller.abort(), 40);
      const err: unknown = await waiting.catch((e: unknown) => e);
      expect(isProviderError(err, 'transient')).toBe(true);
      expect((err as Error).message).toBe('cancelled while waiting for the hung clone');
      const after = count(LIST);
      await new Promise((r) => setTimeout(r, 60));
      expect(count(LIST)).toBe(after);
    } finally {
      undo();
    }
  });

  it('gives up with a transient error when the budget runs out, after asking the node itself', async () => {
    const undo = env.sim.faults.hangTask({ type: 'qmclone' }, 1);
    try {
      const [upid] = await startClones(1);
      env.sim.requests.clear();
      const err: unknown = await new TaskWatcher(env.client)
        .wait(upid!, { budgetMs: 80, what: 'the hung clone', schedule })
        .catch((e: unknown) => e);
      expect(isProviderError(err, 'transient')).toBe(true);
      expect(isBudgetExhausted(err)).toBe(true);
      expect((err as Error).message).toMatch(/^waiting for the hung clone: not done after \d+ s$/);
      expect(count(STATUS)).toBe(1);
    } finally {
      undo();
    }
  });

  it('runs six creates on one node at one task-state request per cycle: the rate stays flat', async () => {
    const create = (i: number) =>
      env.provider.create({
        uid: `watch-${i}`,
        name: `proxy-watch-${i}`,
        placement: { machineType: 'big', image: 'debian-13' },
        cloudInit: '#cloud-config\n',
      });
    // One create alone, then six at once, on a fresh model each time (a fresh simulator state is not needed).
    env.sim.requests.clear();
    await create(0);
    const alone = count(LIST) + count(STATUS);
    env.sim.requests.clear();
    await Promise.all([1, 2, 3, 4, 5, 6].map(create));
    const six = count(LIST) + count(STATUS);
    expect(count(STATUS)).toBe(0);
    // Six creates' tasks overlap on pv1-1: one listing a cycle serves them all, so the six together ask fewer times
    // than they waited on tasks (a poll per task needs at least one each, and one per look), and fewer than six
    // creates one after another would.
    const tasksWaited = env.sim.requests.records.filter((r) => r.method !== 'GET' && r.route !== '/nodes/{node}/qemu/{vmid}/config').length;
    expect(six).toBeLessThan(tasksWaited);
    expect(six).toBeLessThan(6 * alone);
    const stats = taskWatcherFor(env.client).stats()['pv1-1']!;
    expect(stats.statusCalls).toBe(0);
    // No two listings of the node closer than the bucket allows beyond its burst of three.
    const times = env.sim.requests.records.filter((r) => r.route === LIST).map((r) => r.at!);
    const perWindow = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 4 * fastBudgets.youngPollMs!).length));
    expect(perWindow).toBeLessThanOrEqual(3 + 4);
  });
});
