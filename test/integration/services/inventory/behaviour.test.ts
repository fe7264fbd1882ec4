/**
 * What the admin sees change in the inventory, against the simulator:
 * deltas with revisions and a snapshot, marks read once, agent reads only
 * when an address is unknown or the guest restarted, cadence by window
 * visibility, an immediate refresh after an operation, backoff and
 * recovery when the cluster fails, and a node away shown as degraded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { plainVm } from '../../../../main/simulator';
import {
  AGENT,
  CONFIG,
  HIDDEN_MS,
  LISTING,
  proxyAt,
  startInventory,
  type InventoryHarness,
} from '../../../support/services/inventory/harness';

let h: InventoryHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const row = (vmid: number) => h!.service.vm('sim', vmid);

describe('inventory deltas and snapshot', () => {
  it('publishes added, changed and removed rows under increasing revisions, and a snapshot that matches them', async () => {
    h = await startInventory({ proxies: 3 });
    const first = h.deltas.flatMap((d) => d.added.map((r) => r.vmid));
    expect(new Set(first)).toEqual(new Set([100_000, 100_001, 100_002]));
    expect(row(100_000)).toMatchObject({ clusterId: 'sim', node: 'pve1', owner: 'marked', state: 'running', cores: 1, memoryMiB: 1024 });
    expect(row(100_000)?.uid).toBe('00000000-0000-4000-8000-000000100000');
    expect(row(100_000)?.createdAt).toBe('2026-09-23T07:00:00.000Z');
    expect(row(100_000)?.tags).toEqual(['proxy_operator']);

    h.deltas.length = 0;
    await h.step();
    expect(h.deltas).toEqual([]); // nothing changed, nothing sent

    const { state } = h.sc.sim;
    state.setPower(100_001, 'stopped');
    state.removeVm(100_002);
    state.addVm('pve2', proxyAt(100_050));
    state.addVm('pve2', plainVm(100_060, 'proxy-lookalike', 'running'));
    await h.step();
    const added = h.deltas.flatMap((d) => d.added);
    const changed = h.deltas.flatMap((d) => d.changed);
    expect(added.map((r) => [r.vmid, r.owner])).toContainEqual([100_050, 'pending']);
    expect(changed.find((r) => r.vmid === 100_050)).toMatchObject({ owner: 'marked', state: 'running' });
    expect(h.deltas.flatMap((d) => [...d.added, ...d.changed]).findLast((r) => r.vmid === 100_060)?.owner).toBe('foreign');
    expect(changed.find((r) => r.vmid === 100_001)).toMatchObject({ state: 'stopped' });
    expect(changed.find((r) => r.vmid === 100_001)?.address).toBeUndefined();
    expect(h.deltas.flatMap((d) => d.removed)).toEqual([100_002]);

    const revisions = h.deltas.map((d) => d.revision);
    expect(revisions).toEqual(revisions.map((_, i) => revisions[0]! + i));
    const snapshot = h.service.snapshot();
    expect(snapshot.revision).toBe(revisions.at(-1));
    expect(snapshot.clusters[0]!.vms.map((r) => r.vmid).sort()).toEqual([100_000, 100_001, 100_050, 100_060]);
    expect(snapshot.clusters[0]!.nodes.map((n) => [n.node, n.status, n.storages.length])).toEqual([
      ['pve1', 'online', 3],
      ['pve2', 'online', 3],
    ]);
    expect(snapshot.clusters[0]!.status).toMatchObject({ state: 'ok', failures: 0, intervalMs: 5_000 });
  });

  it('shows a lock and a clone in progress, and keeps templates and other VMs out', async () => {
    h = await startInventory({ proxies: 1 });
    h.sc.sim.faults.holdLock(100_000, 'backup');
    const clone = h.sc.sim.state.addVm('pve1', { vmid: 100_070, config: {} });
    clone.cloning = true;
    clone.lock = 'clone';
    h.sc.sim.state.addVm('pve1', plainVm(300, 'home-assistant', 'running'));
    await h.step();
    expect(row(100_000)).toMatchObject({ state: 'locked', lock: 'backup' });
    expect(row(100_070)).toMatchObject({ state: 'provisioning', owner: 'pending', lock: 'clone' });
    expect(row(100_070)?.name).toBeUndefined();
    expect(row(300)).toBeUndefined();
    expect(row(9001)).toBeUndefined();
  });

  it('announces a cluster removed from the directory', async () => {
    h = await startInventory({ proxies: 2 });
    h.sc.directory.remove('sim');
    const last = h.deltas.at(-1)!;
    expect(last).toMatchObject({ clusterId: 'sim', clusterRemoved: true });
    expect(last.removed.sort()).toEqual([100_000, 100_001]);
    expect(h.service.snapshot().clusters).toEqual([]);
  });
});

describe('inventory reads', () => {
  it('reads a mark once per VM: one config read per new VM, again only for a VMID reused under another name', async () => {
    h = await startInventory({ proxies: 4 });
    h.takeRequests();
    h.sc.sim.state.addVm('pve1', proxyAt(100_100, 'stopped'));
    await h.step();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: 1 });
    expect(h.sc.sim.requests.count()).toBe(0);
    await h.step();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });

    // The VMID comes back under another name: a different VM, so its mark is read again.
    h.sc.sim.state.removeVm(100_100);
    h.sc.sim.state.addVm('pve1', plainVm(100_100, 'proxy-renamed-by-hand', 'stopped'));
    await h.step();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: 1 });
    expect(row(100_100)).toMatchObject({ owner: 'foreign', name: 'proxy-renamed-by-hand' });
  });

  it('asks the agent only for running proxies whose address is unknown or whose uptime went backwards', async () => {
    h = await startInventory({ proxies: 2 });
    const { state, clock } = h.sc.sim;
    expect(h.takeRequests()[AGENT]).toBe(2);
    state.addVm('pve1', proxyAt(100_200, 'stopped'));
    state.addVm('pve1', plainVm(100_201, 'proxy-foreign-running', 'running'));
    await h.step();
    expect(h.takeRequests()[AGENT]).toBeUndefined(); // stopped and foreign: never asked

    // A restart: the uptime goes backwards, the guest has a new address (asked once it is past its boot, 40 s).
    const vm = state.vm(100_000)!;
    vm.startedAt = clock.now() - 60_000;
    vm.ip = '192.168.7.77';
    await h.step();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [AGENT]: 1 });
    expect(row(100_000)?.address).toBe('192.168.7.77');
    expect(h.deltas.at(-1)!.changed.map((r) => [r.vmid, r.address])).toEqual([[100_000, '192.168.7.77']]);

    // An agent that never reports an address is asked again with growing pauses, not on every refresh.
    state.addVm('pve2', { ...proxyAt(100_300), agent: 'no-ip' });
    let agentReads = 0;
    for (let i = 0; i < 12; i++) {
      await h.step();
      agentReads += h.takeRequests()[AGENT] ?? 0;
    }
    expect(row(100_300)).toMatchObject({ state: 'provisioning' });
    expect(row(100_300)?.address).toBeUndefined();
    expect(agentReads).toBeGreaterThanOrEqual(2);
    expect(agentReads).toBeLessThanOrEqual(4); // 12 refreshes: attempts at 0, 5, 15, 35 s
  });
});

describe('inventory cadence', () => {
  it('polls every 5 s while a window is visible, every 60 s while hidden, and refreshes at once after an operation', async () => {
    h = await startInventory({ proxies: 2 });
    h.takeRequests();
    for (let i = 0; i < 3; i++) await h.step();
    expect(h.takeRequests()[LISTING]).toBe(3);

    h.visibility.set('hidden');
    for (let i = 0; i < 11; i++) await h.step(); // 55 s
    expect(h.takeRequests()[LISTING]).toBeUndefined();
    await h.step(); // 60 s since the last listing
    expect(h.takeRequests()[LISTING]).toBe(1);
    expect(HIDDEN_MS).toBe(60_000);

    // An operation finished: the new VM shows without waiting for the (hidden) cadence.
    h.sc.sim.state.addVm('pve1', proxyAt(100_400));
    await h.service.refreshNow('sim');
    expect(row(100_400)).toMatchObject({ owner: 'marked', state: 'running' });
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: 1, [AGENT]: 1 });

    h.visibility.set('visible');
    await h.step();
    expect(h.takeRequests()[LISTING]).toBe(1);
  });

  it('refreshNow on an unknown cluster is a not-found error', async () => {
    h = await startInventory({ proxies: 0 });
    await expect(h.service.refreshNow('nope')).rejects.toMatchObject({ kind: 'not-found' });
  });
});

describe('inventory failure and recovery', () => {
  it('backs off while the listing fails, shows degraded with the reason, and recovers by itself', async () => {
    h = await startInventory({ proxies: 2 });
    h.takeRequests();
    const remove = h.sc.sim.faults.inject({ route: '/cluster/resources' }, { kind: 'unreachable', status: 596 });
    let listings = 0;
    for (let i = 0; i < 24; i++) {
      await h.step(); // two minutes in 5 s steps
      listings += h.takeRequests()[LISTING] ?? 0;
    }
    expect(listings).toBeLessThanOrEqual(6); // 24 at the cadence; the backoff holds it to 0, 5, 15, 35, 75 s
    const status = h.service.snapshot('sim').clusters[0]!.status;
    expect(status.state).toBe('degraded');
    expect(status.reason).toMatch(/^Listing the cluster failed: /);
    expect(status.hint).toBeTruthy();
    expect(status.failures).toBeGreaterThanOrEqual(4);
    expect(status.intervalMs).toBeGreaterThanOrEqual(40_000); // doubled per failure, at most 2 min
    expect(row(100_000)).toBeDefined(); // the last known rows stay

    remove();
    for (let i = 0; i < 24 && h.service.snapshot('sim').clusters[0]!.status.state !== 'ok'; i++) await h.step();
    expect(h.service.snapshot('sim').clusters[0]!.status).toMatchObject({ state: 'ok', failures: 0, intervalMs: 5_000 });
    const states = h.deltas.flatMap((d) => (d.status ? [d.status.state] : []));
    expect(states.filter((s, i) => s !== states[i - 1])).toEqual(['ok', 'degraded', 'ok']);
    h.takeRequests();
    await h.step();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
  });

  it('shows a node that goes down as degraded with the reason, its VMs unknown, then ok when it comes back', async () => {
    h = await startInventory({ proxies: 4 });
    h.sc.sim.faults.nodeDown('pve2');
    await h.step();
    const status = h.service.snapshot('sim').clusters[0]!.status;
    expect(status).toMatchObject({ state: 'degraded', failures: 0 });
    expect(status.reason).toContain('pve2 is offline');
    expect(row(100_001)).toMatchObject({ state: 'unknown', node: 'pve2' });
    expect(h.service.nodes('sim').find((n) => n.node === 'pve2')?.status).toBe('offline');

    h.sc.sim.faults.nodeUp('pve2');
    await h.step();
    expect(h.service.snapshot('sim').clusters[0]!.status.state).toBe('ok');
    expect(row(100_001)).toMatchObject({ state: 'running' });
  });
});

describe('who made a marked VM', () => {
  it('labels the proxies this app made with their template and machine type, and the others as not made here', async () => {
    const madeHere = '00000000-0000-4000-8000-000000100001';
    const asked: string[] = [];
    h = await startInventory(
      { proxies: 2 },
      {
        proxyOrigin: (clusterId, uid) => {
          asked.push(`${clusterId}/${uid}`);
          return uid === madeHere ? { template: 'debian-13', machineType: 'small' } : undefined;
        },
      },
    );
    expect(row(100_001)).toMatchObject({ owner: 'marked', ours: true, template: 'debian-13', machineType: 'small' });
    expect(row(100_000)).toMatchObject({ owner: 'marked', ours: false });
    expect(row(100_000)?.template).toBeUndefined();
    expect(asked).toContain(`sim/${madeHere}`);
  });
});
