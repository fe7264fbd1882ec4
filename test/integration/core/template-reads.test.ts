/**
 * Issue 11: the creates of a bulk read their template's config once, not
 * once each (template-reads.ts TEMPLATE_CONFIG_REUSE_MS); a template the check
 * refused is read afresh, so fixing it in Proxmox and running the create
 * again works at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { simProvider, TEMPLATE_VMID, type SimProvider } from './sim-provider';

let env: SimProvider | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const request = (name: string, uid: string) => ({
  uid,
  name,
  placement: { machineType: 'big', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
});

const templateReads = (e: SimProvider) => e.sim.requests.count({ method: 'GET', path: `/nodes/pv1-1/qemu/${TEMPLATE_VMID}/config` });

describe('template config reads', () => {
  it('three creates in a row read the template once, and all three run', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    const ids = [];
    for (const [i, uid] of ['1b2e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b51', '2b2e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b52', '3b2e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b53'].entries()) {
      ids.push(await env.provider.create(request(`proxy-tpl-${i}`, uid)));
    }
    expect(templateReads(env)).toBe(1);
    for (const id of ids) expect(await env.provider.get(id)).toMatchObject({ state: 'running' });
  });

  it('reads a refused template again, so the create runs once the operator fixes it', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    const template = env.sim.state.vm(TEMPLATE_VMID)!;
    template.config.ide2 = 'local-lvm:vm-9001-cloudinit,media=cdrom';
    await expect(env.provider.create(request('proxy-tpl-fixed', '4b2e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b54'))).rejects.toThrow(/cloud-init drive/);
    delete template.config.ide2;
    const id = await env.provider.create(request('proxy-tpl-fixed', '4b2e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b54'));
    expect(await env.provider.get(id)).toMatchObject({ state: 'running' });
    expect(templateReads(env)).toBe(2);
  });
});
