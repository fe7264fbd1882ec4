/**
 * Issue 24 §2, "Addresses", over the simulator's guest agent (its answer in
 * qemu-ga's shape: main/simulator/routes/vm-agent.ts): the inventory and the
 * provider's get show the address on the NIC whose MAC is net0's, skip
 * Docker's and link-local addresses, and give an IPv6-only guest its global
 * IPv6. A guest with one NIC costs no more reads than before; one with a
 * second NIC whose mark came without a config read costs one, for net0's MAC.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { VmDefinition } from '../../../../main/simulator';
import { AGENT, CONFIG, proxyAt, startInventory, type InventoryHarness } from '../../../support/services/inventory/harness';

let h: InventoryHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const withNet1 = (def: VmDefinition): VmDefinition => ({
  ...def,
  config: { ...def.config, net1: 'virtio=BC:24:11:77:00:02,bridge=vmbr0,tag=20' },
});

describe("the address on net0's NIC", () => {
  it('a guest with Docker whose net0 waits for DHCP: no address yet, not docker0 172.17.0.1', async () => {
    h = await startInventory({ proxies: 0 });
    h.sc.sim.state.addVm('pve1', { ...proxyAt(100_700), agent: 'no-ip', guest: { docker: true } });
    await h.step();
    expect(h.service.vm('sim', 100_700)).toMatchObject({ state: 'provisioning' });
    expect(h.service.vm('sim', 100_700)?.address).toBeUndefined();
  });

  it("a guest with Docker: net0's address", async () => {
    h = await startInventory({ proxies: 0 });
    h.sc.sim.state.addVm('pve1', { ...proxyAt(100_701), guest: { docker: true } });
    await h.step();
    expect(h.service.vm('sim', 100_701)?.address).toBe(`192.168.0.${100 + (100_701 % 150)}`);
  });

  it("a second NIC addressed while net0's is not: no address yet, not net1's", async () => {
    h = await startInventory({ proxies: 0 });
    h.sc.sim.state.addVm('pve1', { ...withNet1(proxyAt(100_702)), agent: 'no-ip' });
    await h.step();
    expect(h.service.vm('sim', 100_702)?.address).toBeUndefined();
    // The agent's answer did list net1's address: the old first-NIC-with-an-address rule would have shown it.
    const answer = (await h.sc.cluster.api.agentNetworkInterfaces('pve1', 100_702)).flatMap((i) => i['ip-addresses'] ?? []);
    expect(answer.map((a) => a['ip-address'])).toContain(`10.1.20.${100 + (100_702 % 150)}`);
  });

  it('an IPv6-only guest: its global IPv6, made from its MAC, not the link-local one', async () => {
    h = await startInventory({ proxies: 0 });
    h.sc.sim.state.addVm('pve1', { ...proxyAt(100_703), guest: { ipv6Only: true } });
    await h.step();
    const address = h.service.vm('sim', 100_703)?.address;
    expect(address).toMatch(/^2001:db8::be24:11ff:fe48:[0-9a-f]+$/);
    expect(h.service.vm('sim', 100_703)).toMatchObject({ state: 'running' });
  });

  it("the provider's get: the same address, from net0's MAC in the config it reads", async () => {
    h = await startInventory({ proxies: 0 });
    const def = { ...withNet1(proxyAt(100_704)), guest: { docker: true } };
    h.sc.sim.state.addVm('pve1', def);
    const got = await h.sc.cluster.provider.get(`vms/100704/${String(def.config.name)}`);
    expect(got.ip).toBe(`192.168.0.${100 + (100_704 % 150)}`);
  });

  it("one NIC: one agent read and the mark's config read, as before; a second NIC adds no read once the MAC is known", async () => {
    h = await startInventory({ proxies: 0 });
    h.takeRequests();
    h.sc.sim.state.addVm('pve1', proxyAt(100_705));
    h.sc.sim.state.addVm('pve1', withNet1(proxyAt(100_706)));
    await h.step();
    const reads = h.takeRequests();
    expect([reads[CONFIG], reads[AGENT]]).toEqual([2, 2]);
    expect(h.service.vm('sim', 100_706)?.address).toBe(`192.168.0.${100 + (100_706 % 150)}`);
  });
});
