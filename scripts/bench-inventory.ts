/**
 * The inventory's steady-state cost per refresh at 10, 1,000 and 5,000 VMs:
 * requests sent and main-process CPU time, then the heap after many
 * refreshes. The Proxmox side is the simulator's own answer shapes served
 * from memory (no TLS, no sockets; the listing's body built once), so the
 * CPU measured is the app's: JSON parse, schema check, rows, diff. Prints numbers; asserts nothing.
 *
 *   npx tsx --expose-gc scripts/bench-inventory.ts [refreshes]
 */
import { availableParallelism, loadavg } from 'node:os';
import { createProvider } from '../main/core';
import { createLogger } from '../main/log/logger';
import { MutableClusterDirectory } from '../main/services/clusters/cluster';
import { createInventoryService } from '../main/services/inventory/service';
import { ClusterState } from '../main/simulator/state';
import { SimClock } from '../main/simulator/clock';
import { proxyCluster } from '../test/support/services/inventory/harness';
import { benchProfile, manualTimers, memoryApi } from './bench-inventory-api';

const refreshes = Number(process.argv[2] ?? 200);
const gc = (globalThis as { gc?: () => void }).gc;

async function measure(vms: number): Promise<void> {
  const clock = new SimClock(1);
  const state = new ClusterState(proxyCluster(vms), clock);
  const counter = { requests: 0 };
  const api = memoryApi(state, clock, counter);
  const profile = benchProfile;
  const directory = new MutableClusterDirectory();
  directory.set({ id: 'bench', name: 'bench', profile, api, provider: createProvider(profile, { api }), demo: false });
  const { timers, advance } = manualTimers();
  let deltas = 0;
  const inventory = createInventoryService({ clusters: directory, publish: () => deltas++, logger: createLogger({ sinks: [] }), timers });
  inventory.start();
  await inventory.idle();
  const firstRequests = counter.requests;

  counter.requests = 0;
  const cpuStart = process.cpuUsage();
  const steady = Math.min(refreshes, 50);
  // Each refresh's own CPU time too: the median and 95th percentile say whether one slow refresh (a GC) hides behind the mean.
  const perRefresh: number[] = [];
  for (let i = 0; i < steady; i++) {
    const start = process.cpuUsage();
    advance(5_000);
    await inventory.idle();
    const used = process.cpuUsage(start);
    perRefresh.push((used.user + used.system) / 1000);
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMsPerRefresh = (cpu.user + cpu.system) / 1000 / steady;
  const sorted = perRefresh.sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  const requestsPerRefresh = counter.requests / steady;

  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < refreshes; i++) {
    advance(5_000);
    await inventory.idle();
  }
  gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  inventory.stop();
  clock.stop();
  console.log(
    [
      `${String(vms).padStart(5)} VMs`,
      `first refresh ${firstRequests} requests`,
      `steady ${requestsPerRefresh.toFixed(2)} requests/refresh`,
      `${cpuMsPerRefresh.toFixed(2)} ms CPU/refresh (goal < 20 ms at 5,000: ${(cpuMsPerRefresh / 20).toFixed(2)} of budget; median ${pct(50).toFixed(2)}, p95 ${pct(95).toFixed(2)})`,
      `heap ${(heapBefore / 2 ** 20).toFixed(1)} → ${(heapAfter / 2 ** 20).toFixed(1)} MB after ${refreshes} more refreshes (${heapAfter >= heapBefore ? '+' : ''}${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MB)`,
      `deltas ${deltas}`,
    ].join(' | '),
  );
}

if (!gc) console.log('(run with --expose-gc for a heap figure after collection)');
for (const vms of [10, 1_000, 5_000]) await measure(vms);
const [load1] = loadavg();
console.log(`machine load average ${load1?.toFixed(1)} on ${availableParallelism()} CPUs (CPU time, not wall time, is measured)`);
