/**
 * The inventory over a simulated cluster on a hand-moved clock: deltas are
 * collected, requests are counted on the simulator, and `step()` moves one
 * cadence and waits for the refresh it started.
 */
import type { InventoryDelta } from '../../../../shared/channels/inventory';
import { createLogger } from '../../../../main/log/logger';
import { createInventoryService, type InventoryOptions, type InventoryService } from '../../../../main/services/inventory/service';
import { ManualVisibility } from '../../../../main/services/inventory/visibility';
import { storages } from '../../../../main/simulator/datasets';
import { goodTemplate, proxyVm, type ClusterDefinition, type VmDefinition } from '../../../../main/simulator';
import { startSimCluster, type SimCluster, type SimClusterOptions } from '../../sim-cluster';
import { ManualTimers } from './manual-timers';

export const VISIBLE_MS = 5_000;
export const HIDDEN_MS = 60_000;

const bridges = [{ iface: 'vmbr0', vlanAware: true }];

/** A proxy named and marked like the operator's, with a deterministic UID. */
export function proxyAt(vmid: number, power: VmDefinition['power'] = 'running'): VmDefinition {
  const uid = `00000000-0000-4000-8000-${String(vmid).padStart(12, '0')}`;
  return proxyVm(vmid, `proxy-${String(vmid).padStart(20, '0')}`, uid, power);
}

/** Two nodes, the good template, and `count` running proxies spread over both nodes. */
export function proxyCluster(count: number): ClusterDefinition {
  const proxies = Array.from({ length: count }, (_, i) => proxyAt(100_000 + i));
  return {
    clusterName: 'lab',
    nodes: [
      { node: 'pve1', storages: storages(), bridges, vms: [goodTemplate(), ...proxies.filter((_, i) => i % 2 === 0)] },
      { node: 'pve2', storages: storages(), bridges, vms: proxies.filter((_, i) => i % 2 === 1) },
    ],
  };
}

export interface InventoryHarness {
  sc: SimCluster;
  service: InventoryService;
  timers: ManualTimers;
  visibility: ManualVisibility;
  deltas: InventoryDelta[];
  /** Moves the clock by `ms` (default one visible cadence) and waits for the refreshes it started. */
  step(ms?: number): Promise<void>;
  /**
   * Issue 27: stops the service and starts another on the same simulator and clock (the app closed and opened
   * again), with these options over the first ones; resolves after its first refresh.
   */
  restart(options?: Partial<InventoryOptions>): Promise<void>;
  /** Requests the simulator answered since the last call, by `METHOD route`. */
  takeRequests(): Record<string, number>;
  close(): Promise<void>;
}

export async function startInventory(
  sim: SimClusterOptions & { proxies?: number } = {},
  options: Partial<InventoryOptions> = {},
): Promise<InventoryHarness> {
  // Real-time simulator: uptimes grow at wall speed, so a steady cluster is steady; the agent answers at once.
  const sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: proxyCluster(sim.proxies ?? 10), ...sim });
  const timers = new ManualTimers();
  const visibility = new ManualVisibility('visible');
  const deltas: InventoryDelta[] = [];
  const build = (more: Partial<InventoryOptions> = {}) =>
    createInventoryService({
      clusters: sc.directory,
      publish: (d) => deltas.push(d),
      logger: createLogger({ sinks: [] }),
      visibility,
      visibleIntervalMs: VISIBLE_MS,
      hiddenIntervalMs: HIDDEN_MS,
      maxBackoffMs: 120_000,
      timers,
      ...options,
      ...more,
    });
  const service = build();
  service.start();
  await service.idle();
  const h: InventoryHarness = {
    sc,
    service,
    timers,
    visibility,
    deltas,
    async step(ms = VISIBLE_MS) {
      timers.advance(ms);
      await h.service.idle();
    },
    async restart(more) {
      h.service.stop();
      deltas.length = 0;
      sc.sim.requests.clear();
      h.service = build(more);
      h.service.start();
      await h.service.idle();
    },
    takeRequests() {
      const counts = sc.sim.requests.byRoute();
      sc.sim.requests.clear();
      return counts;
    },
    async close() {
      h.service.stop();
      await sc.close();
    },
  };
  return h;
}

export const LISTING = 'GET /cluster/resources';
export const CONFIG = 'GET /nodes/{node}/qemu/{vmid}/config';
export const AGENT = 'GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces';
