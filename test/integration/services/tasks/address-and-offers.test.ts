/**
 * Issue 12: a create is finished for the user when the proxy has an address
 * (its last step, fed by the inventory's own reads), it gives up after a
 * bound with the reason, a cancel stops the Proxmox task, and a task that
 * did not finish offers only what can help.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADDRESS_STEP } from '../../../../shared/channels/tasks';
import type { InventoryDelta } from '../../../../shared/channels/inventory';
import { createLogger } from '../../../../main/log/logger';
import { createInventoryService, type InventoryService } from '../../../../main/services/inventory/service';
import type { AddressFeed } from '../../../../main/services/tasks/address-watch';
import { createRecordingNotifier } from '../../../../main/ports/notifier';
import { cloudInit, startEnv, type Env } from './harness';

let env: Env | undefined;
let inventory: InventoryService | undefined;
afterEach(async () => {
  inventory?.stop();
  inventory = undefined;
  await env?.close();
  env = undefined;
});

const createInput = { clusterId: 'sim', template: 't9001', machineType: 'small', count: 1, cloudInit };

/** The inventory over the env's directory, and a feed of what it publishes: the app's own wiring, without the bus. */
function inventoryFeedFor(e: Env): AddressFeed {
  const listeners = new Set<(d: InventoryDelta) => void>();
  inventory = createInventoryService({
    clusters: e.t.directory,
    logger: createLogger({ sinks: [] }),
    visibleIntervalMs: 20,
    agentRetry: { baseMs: 5, maxMs: 20 },
    publish: (d) => listeners.forEach((l) => l(d)),
  });
  inventory.start();
  const inv = inventory;
  return {
    row: (c, vmid) => inv.vm(c, vmid),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

/** A feed that never tells anything: the agent never reports. */
const silentFeed: AddressFeed = { row: () => undefined, subscribe: () => () => undefined };

describe('a create ends when the proxy has its address', () => {
  it('waits on its last step, fed by the inventory, then shows the address and tells the desktop', async () => {
    const notifier = createRecordingNotifier();
    env = await startEnv({ agentDelayMs: 2000 }, { notifier, notifyAfterMs: 60_000 });
    const addresses = inventoryFeedFor(env);
    await env.manager.close();
    env.manager = env.open({ notifier, notifyAfterMs: 60_000, addresses, onOperationFinished: (c) => void inventory!.refreshNow(c) });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-address' });
    const id = taskIds[0]!;
    await env.manager.wait(id);
    await until(() => env!.manager.get(id).address?.state === 'ready');
    // Proxmox's part was done, but the proxy not usable yet: the create still ran, with no end (issue 23). Read from
    // the update the window got then, not from what wait() returns: at 2 ms of simulated agent delay the address may
    // already be there when it returns (seen in CI).
    const update = env.events.find((e) => e.name === 'tasks.update' && e.payload.id === id && e.payload.address?.state === 'waiting');
    const proxmoxDone = update?.name === 'tasks.update' ? update.payload : undefined;
    expect(proxmoxDone).toMatchObject({ state: 'running', address: { state: 'waiting' } });
    expect(proxmoxDone!.endedAt).toBeUndefined();
    expect(proxmoxDone!.progress).toBeLessThan(1);
    expect(proxmoxDone!.steps.at(-1)?.name).toBe(ADDRESS_STEP);
    const view = env.manager.get(id);
    const row = inventory!.vm('sim', view.vmid!);
    expect(view.address).toMatchObject({ state: 'ready', value: row?.address, since: expect.any(String), at: expect.any(String) });
    // Done once usable: it ended when the address came, so its duration counts the wait.
    expect(view).toMatchObject({ state: 'succeeded', endedAt: view.address!.at });
    expect(view.steps.every((s) => s.state === 'done' || s.state === 'skipped')).toBe(true);
    expect(view.message).toMatch(new RegExp(`proxy-address is ready at ${row!.address!.replace(/\./g, '\\.')}`));
    // Told whatever the task's length (notifyAfterMs is a minute here), once, as good news.
    expect(notifier.notes.filter((n) => n.taskId === id)).toEqual([
      { title: 'proxy-address is ready', body: expect.stringContaining(row!.address!), taskId: id, tone: 'ok' },
    ]);
    // Between Proxmox's end and the address, the view said which part was done, and that the create still ran.
    const waiting = env.events.find((e) => e.name === 'tasks.update' && e.payload.id === id && e.payload.address?.state === 'waiting');
    expect(waiting?.payload).toMatchObject({
      state: 'running',
      steps: expect.arrayContaining([{ name: ADDRESS_STEP, state: 'running', node: 'pv1-1' }]),
    });
  });

  it('gives up after its bound with a plain reason and what to check; the journal replays a wait left open', async () => {
    const notifier = createRecordingNotifier();
    env = await startEnv({}, { notifier, addresses: silentFeed, addressWaitMs: 60_000 });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-no-agent' });
    const id = taskIds[0]!;
    expect(await env.manager.wait(id)).toMatchObject({ state: 'running', address: { state: 'waiting' } });
    // Restart: the wait is in the journal; reopened with a bound already passed, it gives up at once.
    await env.manager.close();
    env.manager = env.open({ notifier, addresses: silentFeed, addressWaitMs: 1 });
    await until(() => env!.manager.get(id).address?.state === 'gave-up');
    const view = env.manager.get(id);
    expect(view.state).toBe('succeeded'); // Proxmox's part stays done
    expect(view.address).toMatchObject({
      state: 'gave-up',
      reason: 'proxy-no-agent runs, but its guest agent reported no address within 0 s.',
      hint: expect.stringMatching(/qemu-guest-agent is installed and running/),
    });
    expect(view.steps.find((s) => s.name === ADDRESS_STEP)?.state).toBe('failed');
    expect(notifier.notes.at(-1)).toMatchObject({ title: 'proxy-no-agent: no address', tone: 'warn', taskId: id });
  });

  it('without an inventory to feed it, a create ends with Proxmox’s part (no address step)', async () => {
    env = await startEnv();
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-plain' });
    const view = await env.manager.wait(taskIds[0]!);
    expect(view.address).toBeUndefined();
    expect(view.steps.map((s) => s.name)).not.toContain(ADDRESS_STEP);
  });
});

describe('cancel', () => {
  it('before it starts: nothing sent, every step "not run"', async () => {
    env = await startEnv({}, { limits: { global: 1, perNode: 1 }, addresses: silentFeed });
    env.t.sim.faults.hangTask({ type: 'qmclone' });
    const first = (await env.manager.createProxies({ ...createInput, name: 'proxy-first' })).taskIds[0]!;
    const second = (await env.manager.createProxies({ ...createInput, name: 'proxy-second' })).taskIds[0]!;
    expect(env.manager.get(second).state).toBe('queued');
    expect((await env.manager.cancel(second)).message).toBe('Cancelled before it started: nothing was sent to Proxmox.');
    const view = env.manager.get(second);
    expect(view.steps.map((s) => s.state)).toEqual(view.steps.map(() => 'not-run'));
    expect(view.actions).toEqual(['retry']); // nothing was left: no Clean up
    await until(() => env!.manager.get(first).steps.some((s) => s.name === 'clone' && s.upid));
    await env.manager.cancel(first);
  });

  it('says what keeps running when Proxmox refuses the stop', async () => {
    env = await startEnv();
    env.t.sim.faults.hangTask({ type: 'qmclone' });
    env.t.sim.faults.inject({ method: 'DELETE', route: '/nodes/{node}/tasks/{upid}' }, { kind: 'error', fixture: 'err_forbidden' });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-refused' });
    const id = taskIds[0]!;
    await until(() => env!.manager.get(id).steps.some((s) => s.name === 'clone' && s.upid));
    const { message } = await env.manager.cancel(id);
    expect(message).toMatch(/Proxmox refused to stop the Proxmox task qmclone on node pv1-1 .*: it keeps running there until it ends/);
    expect(env.manager.get(id).steps.some((s) => s.state === 'pending' || s.state === 'running')).toBe(false);
  });
});

describe('a failed task offers only what can help', () => {
  it('permanent, nothing made: no Retry, no Clean up; the fix in words and where (Templates)', async () => {
    const notifier = createRecordingNotifier();
    env = await startEnv({}, { notifier });
    env.t.sim.state.vms.get(9001)!.template = false;
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-permanent' });
    const view = await env.manager.wait(taskIds[0]!);
    expect(view).toMatchObject({ state: 'failed', error: { kind: 'permanent' }, fixAt: 'templates', actions: [] });
    expect(view.leftBehind).toBeUndefined();
    expect(view.steps.some((s) => s.state === 'pending')).toBe(false);
    expect(view.steps.at(-1)?.state).toBe('not-run');
    // A failed create is told whatever its length.
    expect(notifier.notes.at(-1)).toMatchObject({ title: 'proxy-permanent: create failed', tone: 'bad' });
  });

  it('transient, after the clone and the seed: Retry, and Clean up naming what was left', async () => {
    env = await startEnv();
    env.t.sim.faults.failTask({ type: 'qmstart' }, 'task_status_stopped_error', 1);
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-transient' });
    const view = await env.manager.wait(taskIds[0]!);
    expect(view).toMatchObject({ state: 'failed', error: { kind: 'transient' }, actions: ['retry', 'clean-up'] });
    expect(view.leftBehind).toBe(`VM ${view.vmid} and its seed`);
    expect(view.fixAt).toBeUndefined();
    expect(view.steps.find((s) => s.name === 'start')?.state).toBe('failed');
    expect(view.steps.find((s) => s.name === 'wait-running')?.state).toBe('not-run');
  });
});

async function until(cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
