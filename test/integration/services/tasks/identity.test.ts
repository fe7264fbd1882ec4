/**
 * Destroying only what is ours (issue 10, items 3 and 6), through the task
 * manager over the simulator: a Clean up never destroys another task's
 * proxy, a delete whose VMID and name disagree is refused before any
 * destructive request, and a seed another VM's CD-ROM uses is never deleted.
 * The legitimate delete and Clean up still leave nothing behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatMark } from '../../../../main/core/provider/rules/mark';
import { AppError } from '../../../../main/errors/app-error';
import type { RequestRecord } from '../../../../main/simulator';
import { proxyVm, SEED_STORAGE } from '../../../../main/simulator';
import { cloudInit, startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const NODE = 'pv1-1';
const createInput = { clusterId: 'sim', template: 't9001', machineType: 'small', count: 1, cloudInit, node: NODE };
const volid = (name: string) => `${SEED_STORAGE}:iso/${name}-seed.iso`;

const named = (e: Env, name: string) => [...e.t.sim.state.vms.values()].filter((vm) => vm.config.name === name);
const seedOf = (e: Env, name: string) => e.t.sim.state.iso(NODE, SEED_STORAGE, `${name}-seed.iso`);

/** Requests that stop, destroy or delete something: none may go out when nothing of ours is there. */
const destructive = (r: RequestRecord) => r.method === 'DELETE' || r.route.endsWith('/status/stop');
function destructiveSince(e: Env, mark: number): string[] {
  return e.t.sim.requests.records
    .slice(mark)
    .filter(destructive)
    .map((r) => `${r.method} ${r.path}`);
}

/** Creates one proxy and waits for it to run; resolves to its VMID. */
async function created(e: Env, name: string): Promise<number> {
  const { taskIds } = await e.manager.createProxies({ ...createInput, name });
  const done = await e.manager.wait(taskIds[0]!);
  expect(done.state, done.message).toBe('succeeded');
  return done.vmid!;
}

describe('Clean up acts only on a VM carrying the task’s own UID', () => {
  it('webdup: the failed second create made nothing, so it offers no Clean up, and the first, running VM and its seed stay', async () => {
    env = await startEnv();
    const first = await created(env, 'webdup');

    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'webdup' });
    const failed = await env.manager.wait(taskIds[0]!);
    expect(failed.state).toBe('failed');
    expect(failed.error?.kind).toBe('permanent');
    expect(failed.message).toMatch(/belongs to proxy uid/);
    // Issue 12: it made nothing, so Clean up is not offered (and a permanent failure offers no Retry either).
    expect(failed.actions).toEqual([]);
    expect(failed.leftBehind).toBeUndefined();

    const mark = env.t.sim.requests.records.length;
    expect(() => env!.manager.cleanUp(failed.id)).toThrow(/nothing to clean up/i);
    expect(destructiveSince(env, mark)).toEqual([]);
    expect(named(env, 'webdup').map((vm) => [vm.vmid, vm.power])).toEqual([[first, 'running']]);
    expect(seedOf(env, 'webdup')).toBeDefined();
  });

  it('a create that failed after its clone: Clean up deletes its VM and its seed', async () => {
    env = await startEnv();
    // The configure step is refused for good: the clone and the seed upload are already done.
    env.t.sim.faults.inject({ method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' }, { kind: 'error', fixture: 'err_bad_param' });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'half-made' });
    const failed = await env.manager.wait(taskIds[0]!);
    expect(failed.state).toBe('failed');
    expect(failed.vmid).toBeDefined();
    expect(named(env, 'half-made')).toHaveLength(1);
    expect(seedOf(env, 'half-made')).toBeDefined();
    env.t.sim.faults.clear();

    const { taskId } = env.manager.cleanUp(failed.id);
    const cleanup = await env.manager.wait(taskId);
    expect(cleanup.state, cleanup.message).toBe('succeeded');
    expect(cleanup.message).toMatch(new RegExp(`VM ${failed.vmid}`));
    expect(named(env, 'half-made')).toEqual([]);
    expect(seedOf(env, 'half-made')).toBeUndefined();
  });
  it('the VM at the create’s VMID now carries another UID: Clean up leaves it and its seed alone', async () => {
    env = await startEnv();
    env.t.sim.faults.inject({ method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' }, { kind: 'error', fixture: 'err_bad_param' }, 1);
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'taken-over' });
    const failed = await env.manager.wait(taskIds[0]!);
    expect(failed.state).toBe('failed');
    const vm = env.t.sim.state.vm(failed.vmid!)!;
    // Another proxy's VM by now: same name and VMID, another UID in the mark, and using the seed.
    vm.config.description = formatMark('0c0c0c0c-0000-4000-8000-000000000000', new Date());
    vm.config.ide2 = `${volid('taken-over')},media=cdrom`;
    const mark = env.t.sim.requests.records.length;

    const { taskId } = env.manager.cleanUp(failed.id);
    const cleanup = await env.manager.wait(taskId);
    expect(cleanup.state, cleanup.message).toBe('succeeded');
    expect(destructiveSince(env, mark)).toEqual([]);
    expect(env.t.sim.state.vm(failed.vmid!)).toBeDefined();
    expect(seedOf(env, 'taken-over')).toBeDefined();
    expect(cleanup.message).toMatch(/nothing was left behind/i);
    expect(cleanup.message).toContain(`belongs to proxy uid 0c0c0c0c-0000-4000-8000-000000000000`);
  });
});

describe('a delete acts only on a VM whose VMID, name and mark agree', () => {
  it('vms/<A>/<B’s name> is refused before any task: neither A, nor B, nor B’s seed is touched', async () => {
    env = await startEnv();
    const a = await created(env, 'web-a');
    const b = await created(env, 'web-b');
    const mark = env.t.sim.requests.records.length;
    const tasksBefore = env.manager.list().length;

    const refused = await env.manager.deleteProxies('sim', [`vms/${a}/web-b`]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'invalid-input' });
    expect((refused as AppError).message).toMatch(new RegExp(`VM ${a} is named web-a, not web-b`));

    expect(env.manager.list()).toHaveLength(tasksBefore);
    expect(destructiveSince(env, mark)).toEqual([]);
    expect(named(env, 'web-a').map((vm) => [vm.vmid, vm.power])).toEqual([[a, 'running']]);
    expect(named(env, 'web-b').map((vm) => [vm.vmid, vm.power])).toEqual([[b, 'running']]);
    expect(seedOf(env, 'web-a')).toBeDefined();
    expect(seedOf(env, 'web-b')).toBeDefined();
  });

  it('a look-alike without the Egress Desk mark is refused, even with the right VMID and name', async () => {
    env = await startEnv();
    env.t.sim.state.addVm(NODE, { vmid: 4545, config: { name: 'web-g', ide2: `${volid('web-g')},media=cdrom` } });
    env.t.sim.state.putIso(NODE, SEED_STORAGE, 'web-g-seed.iso', new Uint8Array(8));
    const mark = env.t.sim.requests.records.length;
    const refused = await env.manager.deleteProxies('sim', ['vms/4545/web-g']).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'invalid-input' });
    expect((refused as AppError).message).toMatch(/VM 4545 named web-g carries no Egress Desk mark/);
    expect(destructiveSince(env, mark)).toEqual([]);
    expect(env.t.sim.state.vm(4545)).toBeDefined();
    expect(seedOf(env, 'web-g')).toBeDefined();
  });

  it('a VM that changed hands between the request and the run is refused at the run, with nothing sent', async () => {
    env = await startEnv();
    const vmid = await created(env, 'web-c');
    // Hold the name so the delete task waits; meanwhile the VM at the VMID gets another proxy's mark.
    const release = await env.manager.names.lock('sim', 'web-c', new AbortController().signal);
    const { taskIds } = await env.manager.deleteProxies('sim', [`vms/${vmid}/web-c`]);
    env.t.sim.state.vm(vmid)!.config.description = formatMark('0b5e1c2d-0000-4000-8000-000000000000', new Date());
    const mark = env.t.sim.requests.records.length;
    release();

    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state).toBe('failed');
    expect(done.error?.kind).toBe('permanent');
    expect(done.message).toMatch(/belongs to proxy uid 0b5e1c2d-0000-4000-8000-000000000000/);
    expect(done.message).toMatch(/nothing was (stopped or )?deleted/i);
    expect(destructiveSince(env, mark)).toEqual([]);
    expect(named(env, 'web-c').map((vm) => vm.power)).toEqual(['running']);
    expect(seedOf(env, 'web-c')).toBeDefined();
  });

  it('an ID whose VM is gone while another proxy of that name runs elsewhere: the other proxy’s seed stays', async () => {
    env = await startEnv();
    const b = await created(env, 'web-e');
    const { taskIds } = await env.manager.deleteProxies('sim', ['vms/199990/web-e']);
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.message).toContain(`VM ${b} (web-e) uses it in ide2`);
    expect(named(env, 'web-e').map((vm) => vm.power)).toEqual(['running']);
    expect(seedOf(env, 'web-e')).toBeDefined();
  });

  it('a seed another VM’s CD-ROM uses is kept, and the result names that VM; the proxy itself is deleted', async () => {
    env = await startEnv();
    const vmid = await created(env, 'web-d');
    env.t.sim.state.addVm('pv1-1', { vmid: 4343, config: { name: 'borrower', sata1: `${volid('web-d')},media=cdrom` } });
    const { taskIds } = await env.manager.deleteProxies('sim', [`vms/${vmid}/web-d`]);
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(named(env, 'web-d')).toEqual([]);
    expect(seedOf(env, 'web-d')).toBeDefined();
    expect(done.message).toContain('VM 4343 (borrower) uses it in sata1');
  });

  it('an operator-made proxy is deleted only with the operator warning acknowledged; the refusal names it and sends nothing', async () => {
    env = await startEnv();
    const mine = await created(env, 'web-m');
    env.t.sim.state.addVm(NODE, proxyVm(4646, 'web-op', '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a', 'running'));
    const mark = env.t.sim.requests.records.length;
    const before = env.manager.list().length;
    const refused = await env.manager.deleteProxies('sim', [`vms/${mine}/web-m`, 'vms/4646/web-op']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'invalid-input', field: 'acknowledgeOperatorWarning' });
    expect((refused as AppError).message).toMatch(/^web-op \(VM 4646\) was not made by this app: .*Nothing was deleted\.$/);
    expect(destructiveSince(env, mark)).toEqual([]);
    expect(env.manager.list()).toHaveLength(before);

    const { parentId } = await env.manager.deleteProxies('sim', [`vms/${mine}/web-m`, 'vms/4646/web-op'], true);
    expect((await env.manager.wait(parentId!)).state).toBe('succeeded');
    expect([...named(env, 'web-m'), ...named(env, 'web-op')]).toEqual([]);
  });

  it('the legitimate delete still removes the VM and its seed', async () => {
    env = await startEnv();
    const vmid = await created(env, 'web-f');
    const { taskIds } = await env.manager.deleteProxies('sim', [`vms/${vmid}/web-f`]);
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.message).toMatch(/web-f .*deleted/);
    expect(named(env, 'web-f')).toEqual([]);
    expect(seedOf(env, 'web-f')).toBeUndefined();
  });
});
