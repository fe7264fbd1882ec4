/**
 * A bulk create as the app runs it: `createProxies` with count 20 and
 * automatic placement, through the task manager (its default slots), against
 * the demo cluster with all three nodes online.
 * Realistic durations (timeScale 1: clone 3 s, upload 1 s, resize 1 s,
 * start 1 s), the same for the single create and the bulk one.
 *
 * Reports the bulk's wall time over one create's (goal <= 1.5) and, observed
 * at the simulator on every request it answers, the most proxies being built
 * at once per node they land on; at the client, the most API calls open per
 * node (queued or on the wire) and the most on the wire, which the client's
 * per-node request limit bounds. Prints numbers; asserts nothing.
 *
 *   npx tsx scripts/bench-bulk.ts [count=20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider, defaultBudgets } from '../main/core';
import type { PveApi } from '../main/core/pve/api';
import { DEFAULT_REQUESTS_PER_NODE } from '../main/core/pve/node-gate';
import { createLogger } from '../main/log/logger';
import { defaultLimits } from '../main/services/tasks/slots';
import { createTaskManager } from '../main/services/tasks/task-manager';
import type { TaskKind } from '../main/simulator';
import { startSimCluster } from '../test/support/sim-cluster';

const COUNT = Number(process.argv[2] ?? 20);
const DURATIONS: Partial<Record<TaskKind, number>> = { qmclone: 3000, imgcopy: 1000, resize: 1000, qmstart: 1000 };
const GOAL = 1.5;

const env = await startSimCluster({ dataset: 'demo', timeScale: 1, taskDurations: DURATIONS, agentDelayMs: 0, budgets: defaultBudgets });
const { sim } = env;
for (const node of sim.state.nodes.keys()) sim.faults.nodeUp(node);

// At the simulator, on every answered request: this run's proxies being built (they exist, not yet running),
// per node they land on (the limit's key); and this run's Proxmox tasks running per node that runs them
// (a clone runs on the template's node, as in Proxmox).
const ours = new Set<string>();
let prefix = 'proxy-bench-';
const mostTasks = new Map<string, number>();
const mostByRunner = new Map<string, number>();
const bump = (most: Map<string, number>, counts: Map<string, number>) => {
  for (const [node, n] of counts) most.set(node, Math.max(most.get(node) ?? 0, n));
};
const addRecord = sim.requests.add.bind(sim.requests);
sim.requests.add = (record) => {
  addRecord(record);
  const building = new Map<string, number>();
  for (const vm of sim.state.vms.values())
    if (String(vm.config.name).startsWith(prefix) && vm.power !== 'running') building.set(vm.node, (building.get(vm.node) ?? 0) + 1);
  const byRunner = new Map<string, number>();
  for (const [upid, t] of sim.tasks.tasks)
    if (ours.has(upid) && t.status === 'running') byRunner.set(t.node, (byRunner.get(t.node) ?? 0) + 1);
  bump(mostTasks, building);
  bump(mostByRunner, byRunner);
};

// At the client: requests in flight per node (the node is every node-scoped call's first argument).
const inFlight = new Map<string, number>();
const mostInFlight = new Map<string, number>();
const api = new Proxy(env.client, {
  get(target, prop, receiver) {
    const value = Reflect.get(target, prop, receiver) as unknown;
    if (typeof value !== 'function') return value;
    return async (...args: unknown[]) => {
      const node = typeof args[0] === 'string' && sim.state.nodes.has(args[0]) ? args[0] : undefined;
      if (node) {
        inFlight.set(node, (inFlight.get(node) ?? 0) + 1);
        mostInFlight.set(node, Math.max(mostInFlight.get(node) ?? 0, inFlight.get(node)!));
      }
      try {
        return (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
      } finally {
        if (node) inFlight.set(node, inFlight.get(node)! - 1);
      }
    };
  },
}) as PveApi;
env.directory.set({ ...env.cluster, api, provider: createProvider(env.cluster.profile, { api, budgets: defaultBudgets }) });

const journalDir = mkdtempSync(join(tmpdir(), 'egress-bench-bulk-'));
const manager = createTaskManager({ directory: env.directory, journalDir, logger: createLogger({ sinks: [] }) });
const template = Object.keys(env.cluster.profile.templates)[0]!;

/** Runs one createProxies request to its end; its wall time in ms. */
async function bulk(count: number, name: string): Promise<number> {
  prefix = name;
  const before = new Set(sim.tasks.tasks.keys());
  const started = performance.now();
  const { taskIds } = await manager.createProxies({
    clusterId: env.cluster.id,
    template,
    machineType: 'medium',
    name,
    count,
    cloudInit: '#cloud-config\n',
  });
  const watch = setInterval(() => {
    for (const upid of sim.tasks.tasks.keys()) if (!before.has(upid)) ours.add(upid);
  }, 5);
  const ends = await Promise.all(taskIds.map((id) => manager.wait(id)));
  clearInterval(watch);
  const failed = ends.filter((t) => t.state !== 'succeeded');
  if (failed.length) throw new Error(`${failed.length} create(s) did not succeed: ${failed[0]?.message}`);
  return performance.now() - started;
}

try {
  console.log(
    `bench-bulk: ${COUNT} proxies over ${sim.state.nodes.size} nodes, limits ${JSON.stringify(defaultLimits)}, durations ${JSON.stringify(DURATIONS)} at timeScale 1`,
  );
  const oneMs = await bulk(1, 'proxy-bench-one');
  mostTasks.clear();
  mostByRunner.clear();
  mostInFlight.clear();
  const bulkMs = await bulk(COUNT, 'proxy-bench-bulk');
  const placed = new Map<string, number>();
  for (const vm of sim.state.vms.values())
    if (String(vm.config.name).startsWith('proxy-bench-bulk')) placed.set(vm.node, (placed.get(vm.node) ?? 0) + 1);
  const ratio = bulkMs / oneMs;
  const waves = Math.ceil(COUNT / Math.min(defaultLimits.global, defaultLimits.perNode * sim.state.nodes.size));
  const worstTasks = Math.max(...mostTasks.values());
  console.log(`one create ${(oneMs / 1000).toFixed(2)} s; ${COUNT} creates ${(bulkMs / 1000).toFixed(2)} s`);
  console.log(`bulk ratio ${ratio.toFixed(2)} (goal <= ${GOAL}: ${(ratio / GOAL).toFixed(2)} of goal)`);
  console.log(`floor set by the limits: ${waves} waves of creates, so about ${waves.toFixed(2)}; per wave ${(ratio / waves).toFixed(2)}`);
  console.log(`placed per node ${JSON.stringify(Object.fromEntries(placed))}`);
  console.log(`most proxies being built at once per node they land on (at the simulator) ${JSON.stringify(Object.fromEntries(mostTasks))}`);
  console.log(
    `most Proxmox tasks running per executing node (clones run where the template is) ${JSON.stringify(Object.fromEntries(mostByRunner))}`,
  );
  console.log(
    `most API calls open per addressed node, queued or on the wire (at the client) ${JSON.stringify(Object.fromEntries(mostInFlight))}`,
  );
  const onWire = env.client.peakRequestsPerNode();
  const worstWire = Math.max(...Object.values(onWire));
  console.log(`most requests on the wire per node ${JSON.stringify(onWire)}`);
  console.log(
    `per-node request limit ${DEFAULT_REQUESTS_PER_NODE}: ${worstWire <= DEFAULT_REQUESTS_PER_NODE ? 'held' : 'BROKEN'} (most ${worstWire})`,
  );
  console.log(`per-node limit ${defaultLimits.perNode}: ${worstTasks <= defaultLimits.perNode ? 'held' : 'BROKEN'} (most ${worstTasks})`);
} finally {
  await manager.close();
  await env.close();
  rmSync(journalDir, { recursive: true, force: true });
}
