/**
 * Issue 11: a create sends no request whose answer it already knows, over
 * the simulator and the real client: no status/current after a start task
 * that ended OK (qemu-server's vm_start ends the task with the guest
 * running), and no read of its own clone's config unless net0 is rewritten
 * (clone_vm renews the MAC, which the rewrite must keep).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { goodTemplate } from '../../../main/simulator';
import { simProvider, TEMPLATE_VMID, type SimProvider } from './sim-provider';

let env: SimProvider | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const request = (name: string) => ({
  uid: '9b2e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b5c',
  name,
  placement: { machineType: 'big', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
});

const STATUS = '/nodes/{node}/qemu/{vmid}/status/current';
const CONFIG = '/nodes/{node}/qemu/{vmid}/config';
const macOf = (net0: unknown) => /^\w+=([0-9A-Fa-f:]{17})/.exec(String(net0))?.[1];

describe('what a create does not ask', () => {
  it('sends no status/current after its start task ended OK, and the VM runs', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    const id = await env.provider.create(request('proxy-no-status'));
    const vmid = Number(id.split('/')[1]);
    expect(env.sim.requests.count({ route: STATUS })).toBe(0);
    expect(env.sim.state.vm(vmid)).toMatchObject({ power: 'running' });
    expect(await env.provider.get(id)).toMatchObject({ state: 'running' });
  });

  it('reads status/current when the template freezes the CPU at start (the guest then waits in prelaunch)', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    env.sim.state.vm(TEMPLATE_VMID)!.config.freeze = '1';
    await env.provider.create(request('proxy-frozen'));
    expect(env.sim.requests.count({ route: STATUS })).toBeGreaterThanOrEqual(1);
  });

  it('reads no config of its own clone when net0 stays as cloned', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    const id = await env.provider.create(request('proxy-no-reread'));
    const vmid = Number(id.split('/')[1]);
    const reads = env.sim.requests.records.filter((r) => r.method === 'GET' && r.route === CONFIG);
    expect(reads.map((r) => r.path)).toEqual([`/nodes/pv1-1/qemu/${TEMPLATE_VMID}/config`]);
    expect(env.sim.state.vm(vmid)!.config.scsi0).toMatch(/size=8G/);
  });

  it('reads its clone back when the profile rewrites net0, and keeps the MAC Proxmox gave the clone', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, profile: { bridge: 'vmbr0', vlanTag: 4 } });
    const templateMac = macOf(env.sim.state.vm(TEMPLATE_VMID)!.config.net0);
    const id = await env.provider.create(request('proxy-own-mac'));
    const vmid = Number(id.split('/')[1]);
    const net0 = env.sim.state.vm(vmid)!.config.net0;
    expect(net0).toMatch(/bridge=vmbr0/);
    expect(net0).toMatch(/tag=4/);
    expect(macOf(net0)).toBeDefined();
    expect(macOf(net0)).not.toBe(templateMac);
    expect(env.sim.requests.count({ method: 'GET', path: `/nodes/pv1-1/qemu/${vmid}/config` })).toBe(1);
  });

  it('the template the tests clone has a MAC of its own to renew', () => {
    expect(macOf(goodTemplate(TEMPLATE_VMID).config?.net0)).toBeDefined();
  });
});
