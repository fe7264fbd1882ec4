/**
 * The core's delete checks identity and seed use right before each
 * destructive request (issue 10, items 3 and 6), over the simulator and the
 * real client: a VM whose name, mark or mark UID is not the one meant is
 * refused (or left alone), a seed any other VM's drive names is kept, and a
 * VM on the node that cannot be read stops the destroy rather than a guess.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import type { DeleteOptions, DeleteReport } from '../../../main/core/provider/operations/delete';
import type { RequestRecord } from '../../../main/simulator';
import { SEED_STORAGE } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeEach(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterEach(async () => env?.close());

const NODE = 'pv1-1';
const UID_A = '0a0a0a0a-1111-4222-8333-444444444444';
const UID_B = '0b0b0b0b-1111-4222-8333-444444444444';
const request = (name: string, uid: string) => ({
  uid,
  name,
  placement: { machineType: 'small', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
});
const vmidOf = (id: string) => Number(id.split('/')[1]);
const seedOf = (name: string) => env.sim.state.iso(NODE, SEED_STORAGE, `${name}-seed.iso`);
const destructive = (r: RequestRecord) => r.method === 'DELETE' || r.route.endsWith('/status/stop');
const destructiveSince = (mark: number) =>
  env.sim.requests.records
    .slice(mark)
    .filter(destructive)
    .map((r) => `${r.method} ${r.path}`);

async function deleteWith(id: string, options: DeleteOptions = {}): Promise<DeleteReport> {
  let report: DeleteReport | undefined;
  await env.provider.delete(id, { ...options, onReport: (r) => (report = r) } as DeleteOptions);
  return report!;
}

describe('delete: the VM at the VMID must be the one meant', () => {
  it('spec mode, vms/<A>/<B’s name>: A is left alone and B’s seed stays, because B’s VM uses it', async () => {
    const a = await env.provider.create(request('proxy-a', UID_A));
    const b = await env.provider.create(request('proxy-b', UID_B));
    const mark = env.sim.requests.records.length;
    const report = await deleteWith(`vms/${vmidOf(a)}/proxy-b`);
    expect(destructiveSince(mark)).toEqual([]);
    expect(report.destroyed).toBeUndefined();
    expect(report.leftAlone).toMatch(new RegExp(`VM ${vmidOf(a)} is named proxy-a, not proxy-b: left alone`));
    expect(report.seedKept).toEqual([{ node: NODE, reason: `VM ${vmidOf(b)} (proxy-b) uses it in ide2.` }]);
    expect(env.sim.state.vm(vmidOf(a))?.power).toBe('running');
    expect(env.sim.state.vm(vmidOf(b))?.power).toBe('running');
    expect(seedOf('proxy-b')).toBeDefined();
  });

  it.each([
    ['another UID in the mark', { expect: { uid: UID_B } }, /belongs to proxy uid 0a0a0a0a-.*, not 0b0b0b0b-/],
    ['a VM that appeared since the request', { expect: 'absent' }, /appeared after this delete was asked for/],
  ] as const)('refuses %s with a permanent error and sends nothing destructive', async (_what, options, message) => {
    const id = await env.provider.create(request('proxy-a', UID_A));
    const mark = env.sim.requests.records.length;
    const err = await env.provider.delete(id, options as DeleteOptions).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toMatch(/nothing was stopped or deleted/);
    expect(destructiveSince(mark)).toEqual([]);
    expect(env.sim.state.vm(vmidOf(id))?.power).toBe('running');
    expect(seedOf('proxy-a')).toBeDefined();
  });

  it('a VM with the ID’s VMID and name but no mark: refused with an expectation, left alone (seed too) without', async () => {
    env.sim.state.addVm(NODE, { vmid: 4545, config: { name: 'proxy-x', ide2: `${SEED_STORAGE}:iso/proxy-x-seed.iso,media=cdrom` } });
    env.sim.state.putIso(NODE, SEED_STORAGE, 'proxy-x-seed.iso', new Uint8Array(8));
    const mark = env.sim.requests.records.length;
    const err = await env.provider.delete('vms/4545/proxy-x', { expect: { uid: '' } } as DeleteOptions).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect((err as Error).message).toMatch(/VM 4545 named proxy-x carries no Egress Desk mark/);
    const report = await deleteWith('vms/4545/proxy-x');
    expect(report.leftAlone).toMatch(/carries no Egress Desk mark.*: left alone/);
    expect(report.seedKept.map((k) => k.reason)).toEqual(['VM 4545 (proxy-x) uses it in ide2.']);
    expect(destructiveSince(mark)).toEqual([]);
    expect(env.sim.state.vm(4545)).toBeDefined();
    expect(seedOf('proxy-x')).toBeDefined();
  });

  it('leave-alone mode: a VM with another UID is not destroyed, and its seed stays because it uses it', async () => {
    const id = await env.provider.create(request('proxy-a', UID_A));
    const report = await deleteWith(id, { expect: { uid: UID_B }, onMismatch: 'leave-alone' });
    expect(report.destroyed).toBeUndefined();
    expect(report.leftAlone).toMatch(/belongs to proxy uid 0a0a0a0a-.*: left alone/);
    expect(report.seedKept.map((k) => k.reason)).toEqual([`VM ${vmidOf(id)} (proxy-a) uses it in ide2.`]);
    expect(env.sim.state.vm(vmidOf(id))?.power).toBe('running');
    expect(seedOf('proxy-a')).toBeDefined();
  });

  it('the UID that matches: stop, seed, destroy, and the report says so', async () => {
    const id = await env.provider.create(request('proxy-a', UID_A));
    const report = await deleteWith(id, { expect: { uid: UID_A } });
    expect(report).toEqual({
      destroyed: { node: NODE, vmid: vmidOf(id) },
      seed: `${SEED_STORAGE}:iso/proxy-a-seed.iso`,
      seedDeletedOn: [NODE],
      seedKept: [],
    });
    expect(env.sim.state.vm(vmidOf(id))).toBeUndefined();
    expect(seedOf('proxy-a')).toBeUndefined();
  });

  it('a VM renamed between the stop and the destroy is not destroyed', async () => {
    const id = await env.provider.create(request('proxy-a', UID_A));
    const err = await env.provider
      .delete(id, {
        onProgress: (e) => {
          if (e.step === 'delete-seed' && e.phase === 'done') env.sim.state.vm(vmidOf(id))!.config.name = 'renamed-by-hand';
        },
      })
      .catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect((err as Error).message).toMatch(/changed during the delete, so it was not destroyed/);
    expect(env.sim.state.vm(vmidOf(id))).toBeDefined();
  });
});

describe('delete: a seed another VM uses is never deleted', () => {
  it('kept when another VM’s CD-ROM names it; the proxy itself is destroyed', async () => {
    const id = await env.provider.create(request('proxy-a', UID_A));
    env.sim.state.addVm(NODE, { vmid: 4343, config: { name: 'borrower', scsi3: `${SEED_STORAGE}:iso/proxy-a-seed.iso,media=cdrom` } });
    const report = await deleteWith(id);
    expect(report.destroyed).toEqual({ node: NODE, vmid: vmidOf(id) });
    expect(report.seedDeletedOn).toEqual([]);
    expect(report.seedKept).toEqual([{ node: NODE, reason: 'VM 4343 (borrower) uses it in scsi3.' }]);
    expect(env.sim.state.vm(vmidOf(id))).toBeUndefined();
    expect(seedOf('proxy-a')).toBeDefined();
  });

  it('a VM on the node whose config cannot be read stops the delete before the destroy; the next delete finishes', async () => {
    const id = await env.provider.create(request('proxy-a', UID_A));
    env.sim.state.addVm(NODE, { vmid: 4344, config: { name: 'unreadable' } });
    const undo = env.sim.faults.inject({ method: 'GET', route: '/nodes/{node}/qemu/{vmid}/config', vmid: 4344 }, { kind: 'unreachable' });
    const err = await env.provider.delete(id).catch((e: unknown) => e);
    expect(isProviderError(err, 'transient')).toBe(true);
    expect((err as Error).message).toMatch(/config of VM 4344 .* could not be read.*was not destroyed/);
    expect(env.sim.state.vm(vmidOf(id))?.power).toBe('stopped');
    expect(seedOf('proxy-a')).toBeDefined();
    undo();
    await env.provider.delete(id);
    expect(env.sim.state.vm(vmidOf(id))).toBeUndefined();
    expect(seedOf('proxy-a')).toBeUndefined();
  });
});
