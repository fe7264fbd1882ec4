/**
 * Issue 27 §3, the cost of watching: the health poller checks each node on its own poller, and those pollers
 * drift apart (each waits its cadence after its own run). The version and the templates' listing are the
 * cluster's, not the node's: over ten simulated minutes on three nodes the listing is read once per cycle and the
 * version once per 5 minutes, not each once per node per cycle, while every node's own status is still read every cycle (the node-unreachable alert needs it).
 * Counted on the simulator, on a hand-moved clock whose timers land a few ms apart per node, as real ones do.
 * With no window shown, a node's check asks only whether the node answers (all the alerts need); shown again,
 * every node gets its full check at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { createHealthService, type HealthService } from '../../../../main/services/health/service';
import { ManualVisibility } from '../../../../main/services/inventory/visibility';
import type { Timers } from '../../../../main/services/polling/timers';
import { storages } from '../../../../main/simulator/datasets';
import { goodTemplate, type ClusterDefinition } from '../../../../main/simulator';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';

const CADENCE = 30_000;
const MINUTES = 10;
const CYCLES = (MINUTES * 60_000) / CADENCE;
const bridges = [{ iface: 'vmbr0', vlanAware: true }];
const threeNodes: ClusterDefinition = {
  clusterName: 'lab',
  nodes: [
    { node: 'pve1', storages: storages(), bridges, vms: [goodTemplate()] },
    { node: 'pve2', storages: storages(), bridges, vms: [] },
    { node: 'pve3', storages: storages(), bridges, vms: [] },
  ],
};

let sc: SimCluster | undefined;
let health: HealthService | undefined;
afterEach(async () => {
  health?.stop();
  await sc?.close();
  sc = health = undefined;
});

describe('health polling cost', () => {
  it('reads the cluster-wide facts once per cycle, and each node every cycle', async () => {
    sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: threeNodes });
    const manual = new ManualTimers();
    // Each wait a few ms longer for one poller than the next: the pollers' phases drift apart as real runs do.
    let n = 0;
    const timers: Timers = {
      now: () => manual.now(),
      setTimeout: (fn, ms) => manual.setTimeout(fn, ms + (n++ % 3) * 7),
      clearTimeout: (h) => manual.clearTimeout(h),
    };
    health = createHealthService({
      clusters: sc.directory,
      publish: () => undefined,
      logger: createLogger({ sinks: [] }),
      timers,
      intervalMs: CADENCE,
    });
    health.start();
    await health.idle();
    sc.sim.requests.clear();
    // Fire each timer at its own moment and let its run finish before the next: runs never overlap by accident.
    const end = manual.now() + MINUTES * 60_000;
    for (let at = manual.nextAt(); at !== undefined && at <= end; at = manual.nextAt()) {
      manual.advance(at - manual.now());
      await health.idle();
    }
    const count = (route: string, node?: string) => sc!.sim.requests.count(node ? { route, node } : { route });
    for (const node of ['pve1', 'pve2', 'pve3']) expect(count('/nodes/{node}/status', node)).toBeGreaterThanOrEqual(CYCLES - 1);
    // The templates' listing once per cycle (a drifted cycle can straddle the window's edge: one more), where it was
    // three; the version, which changes with an upgrade, once per 5 minutes.
    expect(count('/cluster/resources')).toBeLessThanOrEqual(CYCLES + 1);
    expect(count('/version')).toBeLessThanOrEqual(MINUTES / 5 + 1);
    expect(health.snapshot('sim').clusters[0]!.nodes.every((node) => node.latest?.ready)).toBe(true);
  });

  it('Check now reads them afresh', async () => {
    sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: threeNodes });
    const timers = new ManualTimers();
    health = createHealthService({
      clusters: sc.directory,
      publish: () => undefined,
      logger: createLogger({ sinks: [] }),
      timers,
      intervalMs: CADENCE,
    });
    health.start();
    await health.idle();
    sc.sim.requests.clear();
    await health.checkNow('sim');
    expect(sc.sim.requests.count({ route: '/version' })).toBe(1);
    expect(sc.sim.requests.count({ route: '/cluster/resources' })).toBe(1);
  });

  it('asks only whether each node answers while the window is hidden, and checks fully when it is shown', async () => {
    sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: threeNodes });
    const timers = new ManualTimers();
    const visibility = new ManualVisibility('hidden');
    health = createHealthService({
      clusters: sc.directory,
      publish: () => undefined,
      logger: createLogger({ sinks: [] }),
      timers,
      intervalMs: CADENCE,
      visibility,
    });
    health.start();
    await health.idle();
    for (let i = 0; i < CYCLES; i++) {
      timers.advance(CADENCE);
      await health.idle();
    }
    // 1 + CYCLES rounds of the three nodes' status, and nothing else: no version, no storage, no template listing.
    expect(sc.sim.requests.byRoute()).toEqual({ 'GET /nodes/{node}/status': 3 * (CYCLES + 1) });
    expect(health.snapshot('sim').clusters[0]!.nodes.every((n) => n.latest?.ready)).toBe(true);
    // A node going down while hidden is still seen at the next cycle (what node-unreachable needs).
    sc.sim.state.node('pve2')!.online = false;
    timers.advance(CADENCE);
    await health.idle();
    const pve2 = health.snapshot('sim').clusters[0]!.nodes.find((n) => n.node === 'pve2')!.latest!;
    expect(pve2.ready).toBe(false);
    expect(pve2.reason).toBe('Unreachable');
    sc.sim.state.node('pve2')!.online = true;

    sc.sim.requests.clear();
    visibility.set('visible');
    await health.idle();
    expect(sc.sim.requests.count({ route: '/nodes/{node}/storage/{storage}/status' })).toBe(3);
    expect(sc.sim.requests.count({ route: '/version' })).toBe(1);
    expect(health.snapshot('sim').clusters[0]!.nodes.every((n) => n.latest?.details.templates === '1/1')).toBe(true);
  });

  it("keeps the last full check's verdict on the templates while hidden, the node still asked", async () => {
    sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: threeNodes, profile: { templates: { gone: { vmid: 9999 } } } });
    const timers = new ManualTimers();
    const visibility = new ManualVisibility('visible');
    health = createHealthService({
      clusters: sc.directory,
      publish: () => undefined,
      logger: createLogger({ sinks: [] }),
      timers,
      intervalMs: CADENCE,
      visibility,
    });
    health.start();
    await health.idle();
    const pve1 = () => health!.snapshot('sim').clusters[0]!.nodes.find((n) => n.node === 'pve1')!.latest!;
    expect(pve1().reason).toBe('TemplateNotFound');
    visibility.set('hidden');
    sc.sim.requests.clear();
    timers.advance(10 * 60_000);
    await health.idle();
    expect(Object.keys(sc.sim.requests.byRoute())).toEqual(['GET /nodes/{node}/status']);
    expect(pve1()).toMatchObject({ ready: false, reason: 'TemplateNotFound' });
    expect(pve1().details.pveVersion).toBeTruthy();
  });
});
