/**
 * The services that watch clusters, built together for the composition
 * root: the inventory, the health poller (which reads node figures from the
 * inventory's listing) and the proxy check (which reads addresses from it).
 */
import type { EventBus } from '../ipc/event-bus';
import type { Logger } from '../log/logger';
import type { ClusterDirectory } from '../services/clusters/cluster';
import { healthHandlers } from '../services/health/handlers';
import { createHealthService, type HealthOptions } from '../services/health/service';
import { proxyCheckHandlers } from '../services/proxy-check/handlers';
import { createProxyCheckService, type ProxyCheckOptions } from '../services/proxy-check/service';
import { inventoryHandlers } from '../services/inventory/handlers';
import { createInventoryService, type InventoryOptions } from '../services/inventory/service';

export interface MonitoringOptions {
  inventory?: Partial<Omit<InventoryOptions, 'clusters' | 'publish' | 'logger'>>;
  health?: Partial<Omit<HealthOptions, 'clusters' | 'publish' | 'logger' | 'nodeStats'>>;
  proxyCheck?: Partial<Omit<ProxyCheckOptions, 'lookup' | 'logger' | 'isDemo' | 'demoRoute'>>;
}

export function createMonitoring(directory: ClusterDirectory, bus: EventBus, logger: Logger, options: MonitoringOptions = {}) {
  const inventory = createInventoryService({
    clusters: directory,
    publish: (d) => bus.publish('inventory.delta', d),
    logger,
    ...options.inventory,
  });
  const health = createHealthService({
    clusters: directory,
    publish: (u) => bus.publish('health.update', u),
    logger,
    nodeStats: (id) => inventory.nodes(id),
    ...options.health,
  });
  const proxyCheck = createProxyCheckService({
    lookup: (c, vmid) => inventory.vm(c, vmid),
    // The simulated demo's guests are not dialled: see the service.
    isDemo: (c) => directory.list().some((cluster) => cluster.id === c && cluster.demo),
    // …but the loopback proxies the demo runs in their place are, against the demo's own echo.
    demoRoute: async (c, vmid, port) =>
      directory
        .list()
        .find((cluster) => cluster.id === c && cluster.demo)
        ?.demoProxies?.route(vmid, port),
    logger,
    ...options.proxyCheck,
  });
  inventory.start();
  health.start();
  return {
    inventory,
    health,
    proxyCheck,
    handlers: { ...inventoryHandlers(inventory), ...healthHandlers(health), ...proxyCheckHandlers(proxyCheck) },
    /** For the task manager: an operation ended, so list the cluster now. */
    refreshAfterOperation: (clusterId: string) => inventory.refreshAfterOperation(clusterId),
    close() {
      inventory.stop();
      health.stop();
    },
  };
}
