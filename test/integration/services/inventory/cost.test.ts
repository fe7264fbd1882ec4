/**
 * The steady-state cost of the inventory, counted on the simulator: one
 * listing per cluster per refresh, whether the cluster holds 10 proxies or
 * 2,000; the marks and addresses are read once, on the first refresh.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT, CONFIG, LISTING, proxyAt, startInventory, type InventoryHarness } from '../../../support/services/inventory/harness';

let h: InventoryHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('inventory cost', () => {
  for (const proxies of [10, 2_000]) {
    it(`costs one request per refresh at ${proxies} proxies once the marks and addresses are known`, async () => {
      h = await startInventory({ proxies });
      // The first refresh: the listing, then one config (mark) and one agent read per running proxy.
      expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: proxies, [AGENT]: proxies });
      const rows = h.service.snapshot('sim').clusters[0]!.vms;
      expect(rows).toHaveLength(proxies);
      expect(rows.every((r) => r.owner === 'marked' && r.state === 'running' && r.address)).toBe(true);

      for (let refresh = 0; refresh < 5; refresh++) {
        await h.step();
        expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
      }
      // The one request is the all-types listing: VMs, nodes and storages in one answer.
      await h.step();
      expect(h.sc.sim.requests.records[0]?.query).toEqual({});
    });
  }

  it('never has more than three requests in flight for one cluster', async () => {
    h = await startInventory({ proxies: 0 });
    const api = h.sc.cluster.api;
    let inFlight = 0;
    let peak = 0;
    for (const method of ['vmConfig', 'agentNetworkInterfaces', 'clusterResources'] as const) {
      const original = api[method].bind(api) as (...args: unknown[]) => Promise<unknown>;
      (api as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        peak = Math.max(peak, ++inFlight);
        try {
          return await original(...args);
        } finally {
          inFlight--;
        }
      };
    }
    for (let i = 0; i < 60; i++) h.sc.sim.state.addVm('pve1', proxyAt(120_000 + i));
    await h.service.refreshNow('sim');
    expect(h.service.snapshot('sim').clusters[0]!.vms).toHaveLength(60);
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(3);
  });
});
