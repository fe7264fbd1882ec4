import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import { simProvider } from './sim-provider';

let env: Awaited<ReturnType<typeof simProvider>>;
const request = {
  uid: '3f1c2d7e-8a44-4f1b-9a6c-1d2e3f4a5b6c',
  name: 'proxy-lifecycle',
  placement: { machineType: 'small', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
};

beforeAll(async () => {
  env = await simProvider({ timeScale: 0.01, agentDelayMs: 0 }, { youngPollMs: 5, oldPollMs: 20, youngForMs: 100 });
});
afterAll(async () => env?.close());

describe('provider over the simulator and the real client', () => {
  it('runs the operator lifecycle: check, create, repeat, get, list, delete, get, delete', async () => {
    const [node] = await env.provider.check();
    expect(node).toMatchObject({ node: 'pv1-1', ready: true, reason: 'Reachable' });
    const id = await env.provider.create(request);
    expect(id).toBe('vms/184275/proxy-lifecycle');
    expect(await env.provider.create(request)).toBe(id);
    const got = await env.provider.get(id);
    expect(got).toMatchObject({ uid: request.uid, vmid: 184275 });
    expect(['running', 'provisioning']).toContain(got.state);
    expect((await env.provider.listByTag()).map((i) => i.id)).toContain(id);
    await env.provider.delete(id);
    const err = await env.provider.get(id).catch((e: unknown) => e);
    expect(isProviderError(err, 'not-found')).toBe(true);
    await env.provider.delete(id);
  });
});
