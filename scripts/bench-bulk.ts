/**
 * Issue 11's bulk create, with the simulator's physics deciding every copy:
 * `createProxies` with count 20 and automatic placement, through the task
 * manager (its default limits: 4 tasks per node, 2 full clones per storage,
 * 12 in all), against a three-node cluster where each node has its own
 * `local-lvm` (a local SATA SSD, 450 MB/s) and its own copy of the template
 * (the catalogue's `perNode`), so every clone copies on the node it lands on.
 * No task duration is fixed for clones or uploads: physics.ts decides them
 * (overhead + bytes over the storage's fair share of bandwidth).
 *
 * Time scale: 1. The physics scales with timeScale (FairShare works on
 * simulated ms and arms its timers through the clock), but the client does
 * not: its poll cadence, listing caps and request budgets are real ms, so at
 * timeScale 0.1 the same client would look ten times as often per simulated
 * second and both the wall ratio and the requests/s would be wrong. At
 * timeScale 1 the whole bulk takes about 15 s of wall time, well under 60 s.
 *
 * Prints: wall time, the physical floor computed from `sim.physics` (and
 * how), the ratio, the most copies at once per storage (at the simulator's
 * bandwidth flows) against the limit, requests per second per node at
 * pveproxy (`sim.load.perNode()`, 1 s buckets: mean and peak), task-state
 * requests per create, and the top routes per node. Asserts nothing.
 *
 *   npx tsx scripts/bench-bulk.ts [count=20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultBudgets } from '../main/core';
import { createLogger } from '../main/log/logger';
import { defaultLimits } from '../main/services/tasks/slots';
import { createTaskManager } from '../main/services/tasks/task-manager';
import { goodTemplate, SEED_STORAGE, type ClusterDefinition, type NodeDefinition } from '../main/simulator';
import { startSimCluster } from '../test/support/sim-cluster';

const COUNT = Number(process.argv[2] ?? 20);
const WALL_GOAL = 1.15;
const RPS_GOAL = 3;
const NODES = ['pv1-1', 'pv1-2', 'pv1-3'];
const TEMPLATE_VMIDS = [9001, 9101, 9201];
const GiB = 1024 ** 3;
const STORAGE = 'local-lvm';

function node(name: string, templateVmid: number): NodeDefinition {
  return {
    node: name,
    online: true,
    // Local storages (no `shared`): each node has its own disk and its own bandwidth.
    storages: [
      { storage: 'local', type: 'dir', content: 'iso,vztmpl,backup', totalBytes: 100 * GiB },
      { storage: STORAGE, type: 'lvmthin', content: 'images,rootdir', totalBytes: 800 * GiB },
      { storage: SEED_STORAGE, type: 'dir', content: 'iso', totalBytes: 20 * GiB, usedBytes: 0 },
    ],
    bridges: [{ iface: 'vmbr0', vlanAware: true, cidr: '192.168.0.8/24' }],
    vms: [goodTemplate(templateVmid, STORAGE)],
    isos: { [SEED_STORAGE]: [] },
  };
}
const definition: ClusterDefinition = { clusterName: 'bench', nodes: NODES.map((n, i) => node(n, TEMPLATE_VMIDS[i]!)) };

const env = await startSimCluster({
  dataset: definition,
  timeScale: 1,
  agentDelayMs: 0,
  budgets: defaultBudgets,
  profile: {
    templates: {
      'debian-13': { vmid: TEMPLATE_VMIDS[0]!, perNode: Object.fromEntries(NODES.map((n, i) => [n, TEMPLATE_VMIDS[i]!])) },
    },
  },
});
const { sim } = env;
const journalDir = mkdtempSync(join(tmpdir(), 'egress-bench-bulk-'));
const manager = createTaskManager({ directory: env.directory, journalDir, logger: createLogger({ sinks: [] }) });

// The most copies at once per storage, read from the simulator's bandwidth flows on every request it answers and
// every 20 ms (a copy that starts and ends between two requests is still seen).
const mostCopies = new Map<string, number>();
const sampleCopies = () => {
  const copies = new Map<string, number>();
  for (const f of sim.physics.flows.rates()) for (const r of f.resources) copies.set(r, (copies.get(r) ?? 0) + 1);
  for (const [r, n] of copies) mostCopies.set(r, Math.max(mostCopies.get(r) ?? 0, n));
};
const addRecord = sim.requests.add.bind(sim.requests);
sim.requests.add = (record) => {
  addRecord(record);
  sampleCopies();
};

/**
 * The physical floor of `n` creates on one node, in simulated seconds, from the model's own figures:
 * each clone is overhead `o` then a copy of `c` seconds at the storage's full bandwidth; after its clone a
 * create still runs the seed upload, the resize and the start (`tail`), and the guest's boot (agentDelayMs,
 * 0 here: the create ends at `running`). Two lower bounds, the larger wins:
 * - bandwidth: every byte crosses the one storage, so the copies take n·c back to back, the first no sooner
 *   than `o`, and the last create's tail follows its copy: o + n·c + tail;
 * - clone slots: at most `limit` clones hold the storage at once and each holds it at least o + c, so some
 *   slot runs ceil(n / limit) clones in a row: ceil(n / limit)·(o + c) + tail;
 * - node slots (4 creates per node, each at least o + c + tail long): ceil(n / perNode)·(o + c + tail).
 */
function floorSeconds(n: number, nodeName: string, templateVmid: number) {
  const o = sim.physics.overheadMs.qmclone / 1000;
  const c = sim.physics.cloneSeconds(templateVmid, STORAGE, nodeName) - o;
  const seedBytes = 64 * 1024; // a typical NoCloud seed is ~45 KB; the upload is bound by its overhead
  const upload = sim.physics.uploadSeconds(nodeName, SEED_STORAGE, seedBytes);
  const tail = upload + 1 + 1 + 0; // resize and start: the simulator's fixed 1 s tasks; boot: agentDelayMs 0
  const limit = defaultLimits.clonesPerStorage;
  const bandwidth = o + n * c + tail;
  const slots = Math.ceil(n / limit) * (o + c) + tail;
  const nodeSlots = Math.ceil(n / defaultLimits.perNode) * (o + c + tail);
  return { seconds: Math.max(bandwidth, slots, nodeSlots), o, c, tail, bandwidth, slots, nodeSlots };
}

try {
  console.log(
    `bench-bulk: ${COUNT} proxies over ${NODES.length} nodes, ${STORAGE} local per node (${(sim.physics.bandwidth(NODES[0]!, STORAGE) / 1e6).toFixed(0)} MB/s), one template per node, limits ${JSON.stringify(defaultLimits)}, clone and upload times from the physics, timeScale 1`,
  );
  // One create first, so the client has talked to every node (connections, the duration model's seed) as the app has.
  const warm = await manager.createProxies({
    clusterId: env.cluster.id,
    template: 'debian-13',
    machineType: 'medium',
    name: 'proxy-warm',
    count: NODES.length,
    cloudInit: '#cloud-config\n',
  });
  await Promise.all(warm.taskIds.map((id) => manager.wait(id)));
  mostCopies.clear();
  sim.requests.clear();
  sim.load.reset();
  const copySampler = setInterval(sampleCopies, 20);
  const started = performance.now();
  const simStarted = sim.clock.now();
  const { taskIds } = await manager.createProxies({
    clusterId: env.cluster.id,
    template: 'debian-13',
    machineType: 'medium',
    name: 'proxy-bulk',
    count: COUNT,
    cloudInit: '#cloud-config\n',
  });
  const ends = await Promise.all(taskIds.map((id) => manager.wait(id)));
  const wallMs = performance.now() - started;
  const simMs = sim.clock.now() - simStarted;
  clearInterval(copySampler);
  const failed = ends.filter((t) => t.state !== 'succeeded');
  if (failed.length) throw new Error(`${failed.length} create(s) did not succeed: ${failed[0]?.message}`);

  const records = [...sim.requests.records];
  const load = sim.load.perNode(1000 + simMs);
  const placed = new Map<string, number>();
  for (const vm of sim.state.vms.values()) if (String(vm.config.name).startsWith('proxy-bulk')) placed.set(vm.node, (placed.get(vm.node) ?? 0) + 1);
  const floors = NODES.map((n, i) => ({ node: n, n: placed.get(n) ?? 0, ...floorSeconds(placed.get(n) ?? 0, n, TEMPLATE_VMIDS[i]!) }));
  const floor = Math.max(...floors.map((f) => f.seconds));
  const ratio = wallMs / 1000 / floor;
  console.log(`placed per node ${JSON.stringify(Object.fromEntries(placed))}`);
  for (const f of floors)
    console.log(
      `floor on ${f.node} (${f.n} creates): clone overhead ${f.o.toFixed(2)} s + copy ${f.c.toFixed(2)} s alone; after the clone ${f.tail.toFixed(2)} s (upload, resize, start); bandwidth bound ${f.bandwidth.toFixed(2)} s, clone-slot bound ${f.slots.toFixed(2)} s, node-slot bound ${f.nodeSlots.toFixed(2)} s`,
    );
  console.log(
    `wall ${(wallMs / 1000).toFixed(2)} s (simulated ${(simMs / 1000).toFixed(2)} s); floor ${floor.toFixed(2)} s; ratio ${ratio.toFixed(3)} (goal <= ${WALL_GOAL}: ${(ratio / WALL_GOAL).toFixed(2)} of goal)`,
  );
  const worstCopies = Math.max(0, ...[...mostCopies].filter(([k]) => k.endsWith(`/${STORAGE}`)).map(([, n]) => n));
  console.log(
    `most copies at once per storage (simulator flows) ${JSON.stringify(Object.fromEntries(mostCopies))}; limit ${defaultLimits.clonesPerStorage}: ${worstCopies <= defaultLimits.clonesPerStorage ? 'held' : 'BROKEN'} (most ${worstCopies}); task manager slots ${JSON.stringify(manager.peakClonesPerStorage())}`,
  );
  for (const l of load)
    console.log(
      `requests/s on ${l.node} at pveproxy (1 s buckets): mean ${l.mean.toFixed(2)}, peak ${l.peak} (goal <= ${RPS_GOAL}), ${l.total} requests, ${(l.total / Math.max(1, placed.get(l.node) ?? 0)).toFixed(1)} per create placed there`,
    );
  const taskState = records.filter((r) => r.route === '/nodes/{node}/tasks' || r.route === '/nodes/{node}/tasks/{upid}/status').length;
  console.log(`task-state requests per create ${(taskState / COUNT).toFixed(2)} (${taskState} in all); requests per create ${(records.length / COUNT).toFixed(2)}`);
  const byRoute = new Map<string, number>();
  for (const r of records) byRoute.set(`${r.method} ${r.route}`, (byRoute.get(`${r.method} ${r.route}`) ?? 0) + 1);
  console.log('top routes (all nodes):');
  for (const [route, n] of [...byRoute].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`  ${String(n).padStart(4)}  ${(n / COUNT).toFixed(2)}/create  ${route}`);
  const busiest = [...load].sort((a, b) => b.total - a.total)[0];
  if (busiest) {
    const mine = new Map<string, number>();
    for (const r of records)
      if ((r.loadNode ?? r.node) === busiest.node) mine.set(`${r.method} ${r.route}`, (mine.get(`${r.method} ${r.route}`) ?? 0) + 1);
    console.log(`top routes on ${busiest.node}:`);
    for (const [route, n] of [...mine].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${String(n).padStart(4)}  ${route}`);
  }
  const stats = Object.entries(env.client.peakRequestsPerNode());
  console.log(`most requests on the wire per node (client) ${JSON.stringify(Object.fromEntries(stats))}`);
} finally {
  await manager.close();
  await env.close();
  rmSync(journalDir, { recursive: true, force: true });
}
