/**
 * Issue 24 in the core, over the simulator and the real client: a proxy's own bridge and VLAN tag win over the
 * profile's in net0 (a null tag takes the profile's off), and the node's bridges are read as the token sees them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_STORAGE } from '../../../main/simulator';
import { proxyMac } from '../../../main/core/provider/rules/net0';
import type { ProxyNetwork } from '../../../shared/domain/proxy-network';
import { simProvider, type SimProvider } from './sim-provider';

let env: SimProvider | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const request = (name: string, network?: ProxyNetwork) => ({
  uid: '3c1e4c1a-5d3f-4e6a-8b7c-0d1e2f3a4b5c',
  name,
  placement: { machineType: 'small', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
  ...(network ? { network } : {}),
});

describe("a proxy's own network", () => {
  it("puts the proxy's bridge and tag into net0 over the profile's, keeping model and MAC", async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, profile: { bridge: 'vmbr0', vlanTag: 4 } });
    const id = await env.provider.create(request('proxy-own-net', { bridge: 'vmbr1', vlanTag: 20 }));
    const net0 = String(env.sim.state.vm(Number(id.split('/')[1]))!.config.net0);
    expect(net0).toMatch(/^virtio=[0-9A-F:]{17},bridge=vmbr1/);
    expect(net0).toContain('tag=20');
    expect(net0).not.toContain('tag=4');
  });

  it("takes the profile's tag off with a null tag", async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, profile: { bridge: 'vmbr0', vlanTag: 4 } });
    const id = await env.provider.create(request('proxy-untagged', { vlanTag: null }));
    const net0 = String(env.sim.state.vm(Number(id.split('/')[1]))!.config.net0);
    expect(net0).toContain('bridge=vmbr0');
    expect(net0).not.toMatch(/tag=/);
  });

  it('gives a static-address proxy its own MAC in net0 and a network-config naming it in the seed', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    const network = { bridge: 'vmbr1', ipv4: { address: '192.168.20.5/24', gateway: '192.168.20.1' }, dns: ['192.168.20.1'] };
    const r = request('proxy-static', network);
    const id = await env.provider.create(r);
    const net0 = String(env.sim.state.vm(Number(id.split('/')[1]))!.config.net0);
    const mac = proxyMac(r.uid);
    expect(net0).toMatch(new RegExp(`^virtio=${mac},bridge=vmbr1`));
    const seed = Buffer.from(env.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-static-seed.iso')!.bytes).toString('latin1');
    expect(seed).toContain('network-config');
    expect(seed).toContain(`macaddress: "${mac.toLowerCase()}"`);
    expect(seed).toContain('- "192.168.20.5/24"');
  });

  it('writes no network-config for DHCP', async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
    await env.provider.create(request('proxy-dhcp', { bridge: 'vmbr1' }));
    const seed = Buffer.from(env.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-dhcp-seed.iso')!.bytes).toString('latin1');
    expect(seed).not.toContain('network-config');
  });

  it('lists the Linux bridges and SDN vnets of a node, with their VLAN awareness', async () => {
    env = await simProvider({ timeScale: 0.001, dataset: 'demo', profile: { nodes: ['pv1-1', 'pv1-2'] } });
    expect(await env.provider.bridges('pv1-1')).toEqual([
      { name: 'egress2', kind: 'vnet', vlanAware: false, active: true, comment: 'VPN uplink' },
      { name: 'vmbr0', kind: 'bridge', vlanAware: true, active: true },
      { name: 'vmbr1', kind: 'bridge', vlanAware: false, active: true },
    ]);
    await expect(env.provider.bridges('elsewhere')).rejects.toThrow(/not in the profile's nodes/);
  });
});
