/**
 * Issue 16: the power task kinds over the simulator. A start of a stopped
 * proxy; a shutdown the guest ignores fails with Stop it and Wait longer on
 * offer; Stop it stops it; a bulk reboot makes one parent and a child per VM;
 * a request whose identity or state disagrees is refused before any task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../main/errors/app-error';
import { plainVm, proxyVm } from '../../../../main/simulator';
import { startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const NODE = 'pv1-1';
/** The planted VMs carry the mark but this app did not make them: the operator's, so each request confirms the warning. */
const ack = { acknowledgeOperatorWarning: true } as const;
const UID = '7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a0f';
let nextVmid = 160000;

function place(e: Env, name: string, power: 'running' | 'stopped', extra: { ignoresAcpi?: boolean } = {}): number {
  const vmid = nextVmid++;
  e.t.sim.state.addVm(NODE, { ...proxyVm(vmid, name, UID, power), ...extra });
  return vmid;
}

const changing = (e: Env, since: number) =>
  e.t.sim.requests.records
    .slice(since)
    .filter((r) => r.method === 'POST' && /\/status\/(start|stop|shutdown|reboot|resume)$/.test(r.rawPath))
    .map((r) => r.rawPath.replace(/.*\/status\//, ''));

describe('power tasks', () => {
  it('starts a stopped proxy: steps from powerSteps, journalled, the VM running', async () => {
    env = await startEnv();
    const vmid = place(env, 'pw-start', 'stopped');
    const { parentId, taskIds } = await env.manager.power({
      clusterId: 'sim',
      targets: [{ vmid, name: 'pw-start' }],
      action: 'start',
      ...ack,
    });
    expect(parentId).toBeUndefined();
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.kind).toBe('start-proxy');
    expect(done.steps.map((s) => [s.name, s.state])).toEqual([
      ['lookup', 'done'],
      ['start', 'done'],
      ['wait-running', 'done'],
    ]);
    expect(done.upids.map((u) => u.step)).toEqual(['start']);
    expect(done.message).toContain('started');
    expect(env.t.sim.state.vm(vmid)?.power).toBe('running');
    // Reopened from the journal, the task reads the same.
    await env.manager.close();
    env.manager = env.open();
    expect(env.manager.get(taskIds[0]!)).toMatchObject({ kind: 'start-proxy', state: 'succeeded', vmid });
  });

  it('a shutdown the guest ignores fails with Stop it and Wait longer; Stop it stops the VM', async () => {
    env = await startEnv();
    const vmid = place(env, 'pw-acpi', 'running', { ignoresAcpi: true });
    const { taskIds } = await env.manager.power({
      clusterId: 'sim',
      targets: [{ vmid, name: 'pw-acpi' }],
      action: 'shutdown',
      timeoutSeconds: 5,
      ...ack,
    });
    const failed = await env.manager.wait(taskIds[0]!);
    expect(failed.state).toBe('failed');
    expect(failed.error?.kind).toBe('transient');
    expect(failed.message).toMatch(/did not shut down within 5 s/);
    expect(failed.actions).toEqual(['retry', 'stop-it', 'wait-longer']);
    expect(failed.steps.map((s) => s.state)).toEqual(['done', 'failed']);
    expect(env.t.sim.state.vm(vmid)?.power).toBe('running');

    const since = env.t.sim.requests.records.length;
    const { taskId } = env.manager.powerOffer(failed.id, 'stop-it');
    const stopped = await env.manager.wait(taskId);
    expect(stopped.state, stopped.message).toBe('succeeded');
    expect(stopped.kind).toBe('stop-proxy');
    expect(changing(env, since)).toEqual(['stop']);
    expect(env.t.sim.state.vm(vmid)?.power).toBe('stopped');
    // The shutdown is closed by the stop: it offers nothing more.
    expect(env.manager.get(failed.id)).toMatchObject({ closedBy: taskId, actions: [] });
    expect(() => env!.manager.powerOffer(failed.id, 'wait-longer')).toThrow(AppError);
  });

  it('Wait longer runs the shutdown again with its timeout doubled', async () => {
    env = await startEnv();
    const vmid = place(env, 'pw-wait', 'running', { ignoresAcpi: true });
    const { taskIds } = await env.manager.power({
      clusterId: 'sim',
      targets: [{ vmid, name: 'pw-wait' }],
      action: 'shutdown',
      timeoutSeconds: 5,
      ...ack,
    });
    expect((await env.manager.wait(taskIds[0]!)).state).toBe('failed');
    const since = env.t.sim.requests.records.length;
    expect(env.manager.powerOffer(taskIds[0]!, 'wait-longer')).toEqual({ taskId: taskIds[0] });
    const again = await env.manager.wait(taskIds[0]!);
    expect(again.state).toBe('failed');
    expect(again.attempts).toBe(2);
    const sent = env.t.sim.requests.records.slice(since).filter((r) => r.rawPath === `/nodes/${NODE}/qemu/${vmid}/status/shutdown`);
    expect(sent.map((r) => r.form)).toEqual([{ timeout: '10', forceStop: '0' }]);
  });

  it('reboots three in bulk: one parent, three children, a summary', async () => {
    env = await startEnv();
    const targets = ['pw-r1', 'pw-r2', 'pw-r3'].map((name) => ({ vmid: place(env!, name, 'running'), name }));
    const since = env.t.sim.requests.records.length;
    const { parentId, taskIds } = await env.manager.power({ clusterId: 'sim', targets, action: 'reboot', ...ack });
    expect(parentId).toBeDefined();
    expect(taskIds).toHaveLength(3);
    const parent = await env.manager.wait(parentId!);
    expect(parent).toMatchObject({ kind: 'power-proxies', state: 'succeeded', target: 'Reboot 3 proxies', message: '3 succeeded' });
    expect(parent.childIds).toEqual(taskIds);
    for (const id of taskIds) expect(env.manager.get(id)).toMatchObject({ kind: 'reboot-proxy', state: 'succeeded', parentId });
    expect(changing(env, since)).toEqual(['reboot', 'reboot', 'reboot']);
    for (const t of targets) expect(env.t.sim.state.vm(t.vmid)?.power).toBe('running');
  });

  it('refuses before any task: a name that disagrees, a foreign VM, an action that does not apply', async () => {
    env = await startEnv();
    const a = place(env, 'pw-a', 'running');
    const stopped = place(env, 'pw-s', 'stopped');
    const foreign = nextVmid++;
    env.t.sim.state.addVm(NODE, plainVm(foreign, 'pw-f', 'running'));
    const before = env.manager.list().length;
    const since = env.t.sim.requests.records.length;
    const refusal = (input: Parameters<Env['manager']['power']>[0]) => env!.manager.power({ ...input, ...ack }).catch((e: unknown) => e);

    const named = await refusal({ clusterId: 'sim', targets: [{ vmid: a, name: 'pw-b' }], action: 'stop' });
    expect(named).toMatchObject({ kind: 'invalid-input' });
    expect((named as AppError).message).toMatch(new RegExp(`VM ${a} is named pw-a, not pw-b.*Nothing was stopped`));

    const notOurs = await refusal({ clusterId: 'sim', targets: [{ vmid: foreign, name: 'pw-f' }], action: 'shutdown' });
    expect((notOurs as AppError).message).toMatch(/carries no Egress Desk mark/);

    const bulk = await refusal({
      clusterId: 'sim',
      targets: [
        { vmid: a, name: 'pw-a' },
        { vmid: stopped, name: 'pw-s' },
      ],
      action: 'reboot',
    });
    expect((bulk as AppError).message).toMatch(/pw-s \(VM \d+\): It is not running: start it instead/);

    expect(env.manager.list()).toHaveLength(before);
    expect(changing(env, since)).toEqual([]);
    expect(env.t.sim.state.vm(a)?.power).toBe('running');
  });

  it('an operator-made VM needs the operator warning acknowledged, named in the refusal; a proxy made here does not', async () => {
    env = await startEnv();
    const a = place(env, 'pw-op-a', 'running');
    const b = place(env, 'pw-op-b', 'running');
    const created = await env.manager.createProxies({
      clusterId: 'sim',
      node: NODE,
      template: 't9001',
      machineType: 'small',
      name: 'pw-ours',
      count: 1,
      cloudInit: '#cloud-config\n',
    });
    const ours = (await env.manager.wait(created.taskIds[0]!)).vmid!;
    const before = env.manager.list().length;
    const since = env.t.sim.requests.records.length;
    const targets = [
      { vmid: a, name: 'pw-op-a' },
      { vmid: ours, name: 'pw-ours' },
      { vmid: b, name: 'pw-op-b' },
    ];
    const refusal = await env.manager.power({ clusterId: 'sim', targets, action: 'stop' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ kind: 'invalid-input', field: 'acknowledgeOperatorWarning' });
    expect((refusal as AppError).message).toBe(
      `pw-op-a (VM ${a}), pw-op-b (VM ${b}) were not made by this app: the operator that made them reconciles them and may undo this change. Nothing was stopped.`,
    );
    expect((refusal as AppError).hint).toMatch(/Confirm the operator warning/);
    expect(env.manager.list()).toHaveLength(before);
    expect(changing(env, since)).toEqual([]);

    // The proxy made here alone needs no acknowledgement; with it, the operator's go too.
    const mine = await env.manager.power({ clusterId: 'sim', targets: [{ vmid: ours, name: 'pw-ours' }], action: 'stop' });
    expect((await env.manager.wait(mine.taskIds[0]!)).state).toBe('succeeded');
    const all = await env.manager.power({ clusterId: 'sim', targets: [targets[0]!, targets[2]!], action: 'stop', ...ack });
    expect((await env.manager.wait(all.parentId!)).state).toBe('succeeded');
    for (const vmid of [a, b, ours]) expect(env.t.sim.state.vm(vmid)?.power).toBe('stopped');
  });

  it('cancels a running shutdown; Retry is offered', async () => {
    env = await startEnv();
    const vmid = place(env, 'pw-cancel', 'running');
    env.t.sim.faults.hangTask({ type: 'qmshutdown', id: vmid }, 1);
    const { taskIds } = await env.manager.power({ clusterId: 'sim', targets: [{ vmid, name: 'pw-cancel' }], action: 'shutdown', ...ack });
    const id = taskIds[0]!;
    for (let i = 0; i < 200 && !env.manager.get(id).steps.some((s) => s.upid); i++) await new Promise((r) => setTimeout(r, 10));
    await env.manager.cancel(id);
    const cancelled = await env.manager.wait(id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.actions).toEqual(['retry']);
  });
});
