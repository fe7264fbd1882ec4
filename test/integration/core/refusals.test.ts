/**
 * Issue 25 item 5: Proxmox's refusals that no retry can change are said as permanent, in Proxmox's words, with the
 * ways out as the hint; on Proxmox VE 7.4, 8.4 and 9.2 (the words are the same in each release's qemu-server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureMessage } from '../../../fixtures';
import { explainPveFailure, isProviderError } from '../../../main/core';
import { type PveVersion } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

const CLONE = '/nodes/{node}/qemu/{vmid}/clone';

describe.each(['7.4', '8.4', '9.2'] as const)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  beforeAll(async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, version });
  });
  afterAll(async () => env?.close());

  // qemu-server src/PVE/API2/Qemu.pm clone_vm, $load_and_check: both die before the worker, so pveproxy answers 500.
  it.each([
    ['sim_err_clone_local_storage', /move the template's disks to a shared storage/],
    ['sim_err_clone_nonshared_storage', /set the profile's storage to a shared one/],
  ])('a clone refused for its storage (%s) is permanent, in Proxmox’s words, with the ways out; no retry', async (fixture, hint) => {
    const n = fixture.length + version.length;
    const request = {
      uid: `c1c1c1c1-0000-4000-8000-0000000${String(n).padStart(3, '0')}${version.replace('.', '')}`,
      name: `proxy-${fixture.includes('local') ? 'local' : 'nonshared'}-${version.replace('.', '')}`,
      placement: { machineType: 'small', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    };
    const since = env.sim.requests.count({ route: CLONE });
    env.sim.faults.inject({ method: 'POST', route: CLONE }, { kind: 'error', fixture }, 1);
    const e = await env.provider.create(request).catch((x: unknown) => x);
    expect(isProviderError(e, 'permanent'), String(e)).toBe(true);
    expect((e as Error).message).toContain(fixtureMessage(fixture));
    expect((e as { hint: string }).hint).toMatch(hint);
    expect(env.sim.requests.count({ route: CLONE }) - since).toBe(1);
    expect([...env.sim.state.vms.values()].some((v) => v.config.name === request.name)).toBe(false);
  });
});

describe('the client-side explanation of the same refusals', () => {
  it('says permanent with the hint for each, and storage on a node it is not on', async () => {
    const env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    try {
      for (const fixture of ['sim_err_clone_local_storage', 'sim_err_clone_nonshared_storage', 'sim_err_storage_not_on_node']) {
        env.sim.faults.inject({ method: 'GET', route: '/version' }, { kind: 'error', fixture }, 1);
        const err = await env.client.version().catch((x: unknown) => x);
        const explained = explainPveFailure('create', err);
        expect(explained.kind, fixture).toBe('permanent');
        expect(explained.message).toContain(fixtureMessage(fixture));
        expect(explained.hint).toMatch(/storage/);
      }
    } finally {
      await env.close();
    }
  });
});
