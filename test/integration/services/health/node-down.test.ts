/**
 * Health over the simulator on a hand-moved clock: a node that goes down
 * shows not ready with the reason and a fix hint, is checked with growing
 * pauses (counted on the simulator: no flood), and shows healthy again by
 * itself when it comes back. CPU and memory come from the inventory's
 * listing, not from extra requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthUpdate } from '../../../../shared/channels/health';
import { createLogger } from '../../../../main/log/logger';
import { createHealthService, type HealthService } from '../../../../main/services/health/service';
import { createInventoryService, type InventoryService } from '../../../../main/services/inventory/service';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';
import { proxyCluster } from '../../../support/services/inventory/harness';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';

const CADENCE = 30_000;
let sc: SimCluster | undefined;
let health: HealthService | undefined;
let inventory: InventoryService | undefined;

afterEach(async () => {
  health?.stop();
  inventory?.stop();
  await sc?.close();
  sc = health = inventory = undefined;
});

async function start() {
  sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: proxyCluster(2) });
  const timers = new ManualTimers();
  const updates: HealthUpdate[] = [];
  const logger = createLogger({ sinks: [] });
  inventory = createInventoryService({ clusters: sc.directory, publish: () => undefined, logger, timers, visibleIntervalMs: CADENCE });
  inventory.start();
  await inventory.idle();
  sc.sim.requests.clear();
  health = createHealthService({
    clusters: sc.directory,
    publish: (u) => updates.push(u),
    logger,
    timers,
    intervalMs: CADENCE,
    maxBackoffMs: 300_000,
    nodeStats: (id) => inventory!.nodes(id),
  });
  health.start();
  await health.idle();
  const step = async () => {
    timers.advance(CADENCE);
    await inventory!.idle();
    await health!.idle();
  };
  return { sc, updates, step, health };
}

const nodeStatusReads = (s: SimCluster, node: string) => s.sim.requests.count({ route: '/nodes/{node}/status', node });
const latest = (h: HealthService, node: string) => h.snapshot('sim').clusters[0]!.nodes.find((n) => n.node === node)!.latest!;

describe('health polling', () => {
  it('checks every node with the core check, with latency, details and the node figures from the listing', async () => {
    const { sc, health, updates } = await start();
    const pve1 = latest(health, 'pve1');
    expect(pve1).toMatchObject({ node: 'pve1', ready: true, reason: 'Reachable', cpu: 0.03, maxcpu: 16, uptimeSeconds: 864000 });
    expect(pve1.memBytes).toBeGreaterThan(0);
    expect(pve1.details).toMatchObject({ isoStorage: 'proxy-seeds', templates: '1/1' });
    expect(pve1.details.pveVersion).toBeTruthy();
    expect(pve1.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(pve1.nextCheckAt) - Date.parse(pve1.checkedAt)).toBe(CADENCE);
    expect(updates.map((u) => u.node).sort()).toEqual(['pve1', 'pve2']);
    // The core's cost: two node reads per node per round, and the two cluster-wide reads both checks ask at
    // the same moment, which the client sends once (identical GETs in flight are shared).
    expect(sc.sim.requests.byRoute()).toEqual({
      'GET /version': 1,
      'GET /cluster/resources': 1,
      'GET /nodes/{node}/status': 2,
      'GET /nodes/{node}/storage/{storage}/status': 2,
    });
    // The token secret never reaches renderer-bound data: the details name the token id only.
    const secret = sc.sim.tokens.admin!.secret;
    const rendererBound = JSON.stringify([health.snapshot(), updates, inventory!.snapshot()]);
    expect(rendererBound).toContain(sc.sim.tokens.admin!.tokenId);
    expect(rendererBound).not.toContain(secret);
  });

  it('shows a node going down as not ready with the reason, backs off, then shows it healthy again by itself', async () => {
    const { sc, health, step, updates } = await start();
    sc.sim.requests.clear();
    sc.sim.faults.nodeDown('pve2');
    await step();
    const down = latest(health, 'pve2');
    expect(down).toMatchObject({ ready: false, reason: 'Unreachable' });
    expect(down.message).not.toBe('');
    expect(down.hint).toMatch(/powered on/);
    expect(Date.parse(down.nextCheckAt) - Date.parse(down.checkedAt)).toBe(2 * CADENCE);

    for (let i = 0; i < 19; i++) await step(); // ten minutes at a 30 s cadence
    expect(nodeStatusReads(sc, 'pve1')).toBe(20);
    expect(nodeStatusReads(sc, 'pve2')).toBeLessThanOrEqual(5); // 20 without backoff: 30, 90, 210, 450 s …
    expect(latest(health, 'pve1').ready).toBe(true);

    sc.sim.faults.nodeUp('pve2');
    for (let i = 0; i < 10 && !latest(health, 'pve2').ready; i++) await step(); // at most the 5-minute ceiling
    expect(latest(health, 'pve2')).toMatchObject({ ready: true, reason: 'Reachable' });
    const history = health
      .snapshot('sim')
      .clusters[0]!.nodes.find((n) => n.node === 'pve2')!
      .history.map((p) => p.reason);
    expect(history[0]).toBe('Reachable');
    expect(history).toContain('Unreachable');
    expect(history.at(-1)).toBe('Reachable');
    expect(updates.findLast((u) => u.node === 'pve2')).toMatchObject({ clusterId: 'sim', point: { ready: true, reason: 'Reachable' } });

    // Back on the cadence.
    sc.sim.requests.clear();
    await step();
    expect(nodeStatusReads(sc, 'pve2')).toBe(1);
  });

  it('keeps CPU and memory history with each check, for the trend charts', async () => {
    const { health, step, updates } = await start();
    await step();
    await step();
    const history = health.snapshot('sim').clusters[0]!.nodes.find((n) => n.node === 'pve1')!.history;
    expect(history).toHaveLength(3);
    for (const p of history) {
      expect(p.cpu).toBe(0.03);
      expect(p.memBytes).toBeGreaterThan(0);
      expect(p.maxmemBytes).toBeGreaterThan(p.memBytes!);
    }
    expect(updates.at(-1)!.point.maxmemBytes).toBeGreaterThan(0);
  });

  it('checks a cluster now on request', async () => {
    const { sc, health } = await start();
    sc.sim.requests.clear();
    const nodes = await health.checkNow('sim');
    expect(nodes.map((n) => [n.node, n.reason])).toEqual([
      ['pve1', 'Reachable'],
      ['pve2', 'Reachable'],
    ]);
    expect(sc.sim.requests.total).toBe(2 * 2 + 2);
    await expect(health.checkNow('nope')).rejects.toMatchObject({ kind: 'not-found' });
  });
});
