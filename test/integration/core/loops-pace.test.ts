/**
 * Issue 22: every loop that reads Proxmox is held to the node's pace (pace.ts loop lane), whatever the node answers
 * and however fast; each has an end. Each hostile case here is a loop whose schedule asks for far more than the
 * pace (a poll every few ms, as the tests' fast budgets do) against a node that always answers at once that the
 * thing waited on is not there yet; the app's client pace (client-policy.ts) must hold each to 3 sends per node per
 * window. Counted in requests the simulator answered over the loop's run, never timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { budgetsWith } from '../../../main/core/provider/rules/budgets';
import { waitBackUp } from '../../../main/core/provider/operations/power';
import { TaskWatcher } from '../../../main/core/provider/calls/task-watcher';
import { waitUnlocked } from '../../../main/core/provider/calls/tasks';
import type { CoreContext } from '../../../main/core/provider/calls/context';
import { createLogger } from '../../../main/log/logger';
import { APP_CLIENT_PACE } from '../../../main/services/clusters/client-policy';
import { stopProxmoxTask } from '../../../main/services/tasks/queue/cancel';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';
import { AGENT, startInventory, type InventoryHarness } from '../../support/services/inventory/harness';

const log = createLogger({ sinks: [] });
const TASK_STATUS = '/nodes/{node}/tasks/{upid}/status';
/** The pace's bound on sends over `ms` from a standing start: 3 per window of 1,050 ms (1,000 + the 50 ms guard). */
const paceBound = (ms: number) => 3 * (Math.floor(ms / 1050) + 1);
/** A schedule that asks for a look every 2 ms: a hostile loop on its own. */
const hostile = { youngPollMs: 2, youngForMs: 60_000, oldPollMs: 2 };

let t: SimCluster | undefined;
let inventory: InventoryHarness | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  await inventory?.close();
  inventory = undefined;
});

async function paced(): Promise<SimCluster> {
  t = await startSimCluster({ dataset: 'minimal', timeScale: 1, client: { pace: APP_CLIENT_PACE } });
  await t.client.version();
  t.sim.requests.clear();
  return t;
}

/**
 * Runs `loop` for about `ms` (it is cancelled then, or its budget ends it) and counts its reads of `routes` on pv1-1:
 * what it sent until it ended (a read in flight at the end lands just after), and that nothing follows.
 */
async function countDuring(c: SimCluster, routes: string[], ms: number, loop: (signal: AbortSignal) => Promise<unknown>) {
  const reads = () => c.sim.requests.records.filter((r) => r.node === 'pv1-1' && routes.includes(r.route)).length;
  const started = Date.now();
  await loop(AbortSignal.timeout(ms)).catch(() => undefined);
  const elapsed = Date.now() - started;
  await new Promise((r) => setTimeout(r, 300));
  const sent = reads();
  // The loop has ended: nothing more is sent.
  await new Promise((r) => setTimeout(r, 300));
  expect(reads()).toBe(sent);
  return { sent, bound: paceBound(elapsed) };
}

const ctxOf = (c: SimCluster): CoreContext => ({ api: c.client, budgets: budgetsWith(hostile), log }) as unknown as CoreContext;

describe('every loop that reads Proxmox is held to the node’s pace', () => {
  it('the task watcher, on tasks that never end', async () => {
    const c = await paced();
    c.sim.faults.hangTask({ type: 'qmstart' });
    const upids = await Promise.all([100, 9000, 9001].map((vmid) => c.client.start('pv1-1', vmid)));
    c.sim.requests.clear();
    const watcher = new TaskWatcher(c.client);
    const { sent, bound } = await countDuring(c, ['/nodes/{node}/tasks', TASK_STATUS], 2300, (signal) =>
      Promise.allSettled(upids.map((upid) => watcher.wait(upid, { budgetMs: 60_000, what: upid, signal, schedule: hostile }))),
    );
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(bound);
  });

  it('the wait for a VM to run again (status/current), on a VM that stays stopped', async () => {
    const c = await paced();
    const { sent, bound } = await countDuring(c, ['/nodes/{node}/qemu/{vmid}/status/current'], 2300, (signal) =>
      waitBackUp(ctxOf(c), 'pv1-1', 100, signal),
    );
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(bound);
  });

  it('the wait for a lock to clear (config), on a lock that never clears', async () => {
    const c = await paced();
    c.sim.faults.holdLock(100);
    const { sent, bound } = await countDuring(c, ['/nodes/{node}/qemu/{vmid}/config'], 2300, (signal) =>
      waitUnlocked(ctxOf(c), 'pv1-1', 100, signal),
    );
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(bound);
  });

  it('the read of how a stopped task ended, on a task that answers running for ever', async () => {
    const c = await paced();
    c.sim.faults.hangTask({ type: 'qmstart' });
    const upid = await c.client.start('pv1-1', 100);
    c.sim.requests.clear();
    c.sim.faults.inject(
      { route: '/nodes/{node}/tasks/{upid}/status' },
      { kind: 'answer', body: { data: { upid, node: 'pv1-1', type: 'qmstart', starttime: 1, status: 'running' } } },
    );
    c.sim.faults.inject({ method: 'DELETE', route: '/nodes/{node}/tasks/{upid}' }, { kind: 'answer', body: { data: null } });
    const { sent, bound } = await countDuring(c, [TASK_STATUS], 2300, () => stopProxmoxTask(c.client, upid, { budgetMs: 2300, pollMs: 1 }));
    expect(sent).toBeGreaterThan(1);
    expect(sent).toBeLessThanOrEqual(bound);
  });

  it('the inventory, on running proxies whose guest agent always answers at once that it is not running', async () => {
    inventory = await startInventory({ proxies: 12, agentDelayMs: 1e12, client: { pace: APP_CLIENT_PACE } });
    const h = inventory;
    h.takeRequests();
    const onPve1 = () => h.sc.sim.requests.records.filter((r) => r.node === 'pve1' && `${r.method} ${r.route}` === AGENT).length;
    const started = Date.now();
    // Each step is an hour of the inventory's clock: every proxy's agent is due again at each.
    for (let i = 0; i < 3; i++) await h.step(3_600_000);
    const elapsed = Date.now() - started;
    expect(onPve1()).toBeGreaterThanOrEqual(12);
    expect(onPve1()).toBeLessThanOrEqual(paceBound(elapsed));
  });
});
