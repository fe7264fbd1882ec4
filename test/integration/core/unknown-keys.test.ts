/**
 * A template or machine type named after what every JavaScript object
 * answers for (`constructor`, `toString`, `__proto__`…) is an unknown key:
 * refused with a plain message before a single request changes anything,
 * by the core and by the task manager in front of it. Counted on the
 * simulator: no clone, no upload, no config write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import { cloudInit, startEnv, type Env } from '../services/tasks/harness';
import { simProvider, type SimProvider } from './sim-provider';

const keys = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
const writes = (sim: SimProvider['sim']) => sim.requests.records.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.route}`);

describe('the core', () => {
  let env: SimProvider;
  beforeAll(async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
  });
  afterAll(async () => env?.close());

  it.each(keys)('refuses %j as a machine type or a template before any request', async (key) => {
    env.sim.requests.clear();
    const base = { uid: '5b1d8c2e-1f0a-4c3b-9d8e-7a6b5c4d3e2f', name: 'proxy-keys', cloudInit: '#cloud-config\n' };
    for (const placement of [
      { machineType: key, image: 'debian-13' },
      { machineType: 'small', image: key },
    ]) {
      const failure = await env.provider.create({ ...base, placement }).catch((e: unknown) => e);
      expect(isProviderError(failure) && failure.kind).toBe('permanent');
      expect((failure as Error).message).toContain(`"${key}" is not in the profile's`);
    }
    expect(env.sim.requests.total).toBe(0);
  });
});

describe('the task manager', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => env?.close());

  it.each(keys)('refuses %j as a template or machine type with an invalid-input error, and starts no task', async (key) => {
    const input = { clusterId: 'sim', template: 't9001', machineType: 'small', count: 1, cloudInit };
    await expect(env.manager.createProxies({ ...input, template: key })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'template',
    });
    await expect(env.manager.createProxies({ ...input, machineType: key })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'machineType',
    });
    // Give a task that should not exist time to send its requests.
    await new Promise((r) => setTimeout(r, 200));
    expect(writes(env.t.sim)).toEqual([]);
    expect(env.t.sim.requests.count({ route: '/nodes/{node}/qemu/{vmid}/clone' })).toBe(0);
    expect(env.t.sim.requests.count({ route: '/nodes/{node}/storage/{storage}/upload' })).toBe(0);
  });
});
