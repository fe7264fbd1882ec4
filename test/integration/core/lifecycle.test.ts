/**
 * Spec entry 21's real-backend sequence, over the simulator and the real
 * client: check, create, repeat, get, list, delete, get, delete, and nothing
 * left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import { SEED_STORAGE } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
const request = {
  uid: '3f1c2d7e-8a44-4f1b-9a6c-1d2e3f4a5b6c',
  name: 'proxy-lifecycle',
  placement: { machineType: 'big', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
};

beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const vmsNamed = (name: string) => [...env.sim.state.vms.values()].filter((vm) => vm.config.name === name);

describe('provider over the simulator and the real client', () => {
  it('runs the operator lifecycle: check, create, repeat, get, list, delete, get, delete', async () => {
    const [node] = await env.provider.check();
    expect(node).toMatchObject({ node: 'pv1-1', ready: true, reason: 'Reachable' });
    expect(Object.keys(node!.details).sort()).toEqual(['isoStorage', 'isoStorageAvailGiB', 'kernel', 'pveVersion', 'templates', 'tokenID']);

    const before = new Date();
    const id = await env.provider.create(request);
    expect(id).toBe('vms/184275/proxy-lifecycle');
    const vmCount = env.sim.state.vms.size;
    expect(await env.provider.create(request)).toBe(id);
    expect(env.sim.state.vms.size).toBe(vmCount);
    expect(env.sim.requests.count({ route: '/nodes/{node}/qemu/{vmid}/clone' })).toBe(1);

    const got = await env.provider.get(id);
    expect(got).toMatchObject({ state: 'running', uid: request.uid, vmid: 184275, node: 'pv1-1' });
    expect(got.ip).toMatch(/^192\.168\.0\.\d+$/);
    expect(got.createdAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 1000) * 1000);
    expect(got.createdAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(env.sim.state.vm(184275)!.config.scsi0).toMatch(/size=8G/);

    expect((await env.provider.listByTag()).map((i) => i.id)).toContain(id);
    await env.provider.delete(id);
    const err = await env.provider.get(id).catch((e: unknown) => e);
    expect(isProviderError(err, 'not-found')).toBe(true);
    await env.provider.delete(id);

    expect(vmsNamed(request.name)).toEqual([]);
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${request.name}-seed.iso`)).toBeUndefined();
  });
});
