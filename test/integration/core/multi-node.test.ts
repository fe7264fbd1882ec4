/**
 * The provider over a three-node simulator (the demo cluster: pv1-3 is
 * down): a create placed on another node than its template's, and the
 * paths that must cope with a node that does not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import { SEED_STORAGE } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0, profile: { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] } });
});
afterAll(async () => env?.close());

const DOWN_VM = 'vms/150006/proxy-e5r8t2y6u9i3o7p1a4';
const clones = () => env.sim.requests.records.filter((r) => r.route === '/nodes/{node}/qemu/{vmid}/clone');

describe('the provider over three nodes, one down', () => {
  it('places a VM on the zone node: the clone targets it, the seed lands there', async () => {
    const request = {
      uid: '0c1d2e3f-4a5b-4c6d-8e7f-8a9b0c1d2e3f',
      name: 'proxy-on-pv1-2',
      placement: { zone: 'pv1-2', machineType: 'small', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    };
    const id = await env.provider.create(request);
    const vm = env.sim.state.vm(Number(id.split('/')[1]))!;
    expect(vm).toMatchObject({ node: 'pv1-2', power: 'running' });
    expect(clones().at(-1)).toMatchObject({ node: 'pv1-1', form: expect.objectContaining({ target: 'pv1-2' }) });
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${request.name}-seed.iso`)).toBeDefined();
    expect((await env.provider.get(id)).node).toBe('pv1-2');
  });

  it('get and delete of a VM on the down node are transient, never not-found; nothing is touched', async () => {
    const get = await env.provider.get(DOWN_VM).catch((e: unknown) => e);
    expect(isProviderError(get, 'transient')).toBe(true);
    const del = await env.provider.delete(DOWN_VM).catch((e: unknown) => e);
    expect(isProviderError(del, 'transient')).toBe(true);
    expect(env.sim.state.vm(150_006)).toBeDefined();
  });

  it('delete of a VM already gone removes its seed on every answering node, skipping the down one', async () => {
    for (const node of ['pv1-1', 'pv1-2']) env.sim.state.putIso(node, SEED_STORAGE, 'proxy-gone-seed.iso', new Uint8Array(8));
    await env.provider.delete('vms/150999/proxy-gone');
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-gone-seed.iso')).toBeUndefined();
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, 'proxy-gone-seed.iso')).toBeUndefined();
    // The down node's VMs cannot be read, so one of them may use its copy: that copy is kept, and no request is sent.
    const seedDeletes = env.sim.requests.records.filter((r) => r.route === '/nodes/{node}/storage/{storage}/content/{volume}');
    expect(seedDeletes.map((r) => [r.node, r.status])).toEqual([
      ['pv1-1', 200],
      ['pv1-2', 200],
    ]);
  });

  it('listByTag covers every node and skips what the down node cannot show', async () => {
    const ids = (await env.provider.listByTag()).map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining(['vms/150001/proxy-a7k2m9x4q1w8e5r3t6', 'vms/150003/proxy-c9h4g1f6d3s8a2p7o5']));
    expect(ids).not.toContain(DOWN_VM);
    expect(ids.some((id) => id.includes('proxy-lookalike-not-ours'))).toBe(false);
  });
});
