/**
 * Issue 11: what the inventory does not ask during a bulk. The mark of a VM
 * this client's own create cloned is known (the create wrote it), so no
 * config read; a booting proxy's agent is asked when its guest reaches the
 * expected boot, between listings, with no listing of its own; and the
 * operations a bulk ends cost a listing per gap, not one each.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AFTER_OPERATION_GAP_MS } from '../../../../main/services/inventory/service';
import { AGENT, CONFIG, LISTING, proxyAt, startInventory, type InventoryHarness } from '../../../support/services/inventory/harness';

let h: InventoryHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const UID = '5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b';

describe('inventory reads in a bulk', () => {
  it('reads no config of a VM this client created: the mark is the one the create wrote', async () => {
    h = await startInventory({ proxies: 0, timeScale: 0.001 });
    const id = await h.sc.cluster.provider.create({
      uid: UID,
      name: 'proxy-made-here',
      placement: { zone: 'pve1', machineType: 'small', image: 't9001' },
      cloudInit: '#cloud-config\n',
    });
    const vmid = Number(id.split('/')[1]);
    h.takeRequests();
    await h.step();
    expect(h.takeRequests()[CONFIG]).toBeUndefined();
    expect(h.service.vm('sim', vmid)).toMatchObject({ owner: 'marked', uid: UID, name: 'proxy-made-here' });

    // A marked proxy made by someone else (another app, the operator) still has its mark read.
    h.sc.sim.state.addVm('pve2', proxyAt(100_500));
    await h.step();
    expect(h.takeRequests()[CONFIG]).toBe(1);
  });

  it("asks a booting proxy's agent once its uptime reaches the expected boot, between listings and without one", async () => {
    h = await startInventory({ proxies: 0 });
    h.takeRequests();
    const vm = h.sc.sim.state.addVm('pve1', proxyAt(100_600));
    vm.startedAt = h.sc.sim.clock.now() - 37_000; // listed at 37 s of uptime: its agent is due at 40 s (bootS)
    await h.step();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: 1 });
    expect(h.service.vm('sim', 100_600)?.address).toBeUndefined();

    await h.step(2_000);
    expect(h.takeRequests()).toEqual({});
    await h.step(1_000);
    expect(h.takeRequests()).toEqual({ [AGENT]: 1 });
    expect(h.service.vm('sim', 100_600)?.address).toMatch(/^192\.168\./);
  });

  it('lists once for the first ended operation, then at most once per gap for the many a bulk ends', async () => {
    h = await startInventory({ proxies: 0 });
    await h.step();
    h.takeRequests();
    h.service.refreshAfterOperation('sim');
    await h.service.idle();
    expect(h.takeRequests()[LISTING]).toBe(1);
    // Ten more operations end within the gap: one listing held for its end, none before.
    for (let i = 0; i < 10; i++) h.service.refreshAfterOperation('sim');
    await h.service.idle();
    expect(h.takeRequests()[LISTING]).toBeUndefined();
    await h.step(AFTER_OPERATION_GAP_MS);
    expect(h.takeRequests()[LISTING]).toBe(1);
    // Long after, one operation's refresh runs at once again.
    await h.step(AFTER_OPERATION_GAP_MS + 1);
    h.takeRequests();
    h.service.refreshAfterOperation('sim');
    await h.service.idle();
    expect(h.takeRequests()[LISTING]).toBe(1);
  });
});
