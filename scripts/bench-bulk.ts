/**
 * Issue 11's bulk create, with the simulator's physics deciding every copy:
 * `createProxies` with count 20 and automatic placement, through the task
 * manager (its default limits: 4 tasks per node, 2 full clones per storage,
 * 12 in all), against a three-node cluster where each node has its own
 * `local-lvm` (a local SATA SSD, 450 MB/s) and its own copy of the template
 * (the catalogue's `perNode`), so every clone copies on the node it lands on.
 * No task duration is fixed for clones or uploads: physics.ts decides them.
 *
 * A create is finished for the user when the proxy has its address (issue 12:
 * the task's last step), so the inventory runs beside the task manager as in
 * the app (main/app/compose.ts: the address feed, a refresh after each
 * operation) and the guest agent answers `agentDelayMs` = 50 s after start
 * (F21). The wall ends when the last proxy's address step is done; the floor
 * includes the start and that boot.
 *
 * The client as the app builds it (main/services/clusters/client-policy.ts):
 * the per-node pace (main/core/pve/pace.ts, 3 requests per second per node)
 * engaged under load, i.e. while two or more creates overlap (the task
 * manager's create runner marks them), identical GETs shared
 * (single-flight.ts), calls that name no node counted against the node the
 * URL reaches, which the client learns itself (GET /cluster/status, `local`:
 * pv1-1 here, the simulator's API node). The fourth argument compares:
 * `always` paces every request, `off` none.
 *
 * Time scale (argv[3], default 1: about 2.5 minutes, the bulk ~85 s and the
 * warm-up ~55 s, since both wait for the boot). A faster run scales every
 * simulated duration in the simulator (copies, task overheads, the agent
 * delay, pveproxy's request cost, `sim.load` buckets) and every real-ms
 * timing of the app here by the same factor: the task watcher's schedule
 * (budgets youngPollMs, youngForMs, oldPollMs; its listing bucket refills per
 * youngPollMs; learned durations are learned from what it sees), the pace's
 * window and guard, the inventory's cadence and agent retry pauses. Not scaled:
 * the guest's boot threshold (`bootS`, compared with the listing's uptime,
 * which is simulated already; between listings the inventory counts that
 * uptime on in real ms, so at a faster scale it asks a little late) and what no setting controls: loopback round
 * trips, TLS, JSON and the event loop (1-5 real ms per request). At 0.1 those
 * become 10-50 simulated ms, and both figures drift: wall ratio 1.74 at 0.1
 * against 1.39 at 1 on this box (2 loaded cores), per-node peaks 4-6 against 3
 * (sends the pace spaces 350 ms apart reach the node bunched), so the default
 * stays at real time. `npx tsx scripts/bench-bulk.ts 20 0.1` is a quick look.
 *
 * Prints: wall time, the physical floor computed from `sim.physics` (and
 * how), the ratio, the most copies at once per storage (at the simulator's
 * bandwidth flows) against the limit, requests per second per node at
 * pveproxy (`sim.load.perNode()`, 1 s buckets of simulated time: mean and
 * peak), task-state requests per create, the routes per create, and the busiest
 * node's requests by kind (the create's lookup and the inventory's listing told
 * apart, the template's config reads from the proxies'), before and after
 * Proxmox's part of every create was done. Asserts nothing.
 *
 *   npx tsx scripts/bench-bulk.ts [count=20] [timeScale=1] [app|always|off]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PACE, defaultBudgets } from '../main/core';
import { APP_CLIENT_PACE } from '../main/services/clusters/client-policy';
import { createLogger } from '../main/log/logger';
import { createInventoryService } from '../main/services/inventory/service';
import { defaultAgentRetry } from '../main/services/inventory/runtime';
import type { AddressFeed } from '../main/services/tasks/address-watch';
import { defaultLimits } from '../main/services/tasks/queue/slots';
import { createTaskManager } from '../main/services/tasks/task-manager';
import { goodTemplate, SEED_STORAGE, type ClusterDefinition, type NodeDefinition } from '../main/simulator';
import { startSimCluster } from '../test/support/sim-cluster';

const COUNT = Number(process.argv[2] ?? 20);
const SCALE = Number(process.argv[3] ?? 1);
/** argv[4]: the app's client (default), or for comparison the pace on every request (`always`) or none (`off`). */
const PACE_MODE = process.argv[4] ?? 'app';
const PACE = PACE_MODE === 'always' ? DEFAULT_PACE : PACE_MODE === 'off' ? false : APP_CLIENT_PACE;
/** F21: the guest reported its address 50 s after start; the simulator's default. */
const AGENT_DELAY_MS = 50_000;
const INVENTORY_CADENCE_MS = 5_000;
const WALL_GOAL = 1.1;
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

const scaled = (ms: number) => ms * SCALE;
const env = await startSimCluster({
  dataset: definition,
  timeScale: SCALE,
  agentDelayMs: AGENT_DELAY_MS,
  budgets: {
    ...defaultBudgets,
    youngPollMs: scaled(defaultBudgets.youngPollMs),
    youngForMs: scaled(defaultBudgets.youngForMs),
    oldPollMs: scaled(defaultBudgets.oldPollMs),
  },
  // The app's pace (the goal is 3 requests a second per node), scaled with the clock. No `apiNode`: the client
  // learns that the URL reaches pv1-1 as the app's does, so calls that name no node count against its pace.
  client: {
    pace: PACE && { ...PACE, perMs: scaled(PACE.perMs), guardMs: scaled(PACE.guardMs ?? 0), settleMs: scaled(PACE.settleMs ?? 60_000) },
  },
  profile: {
    templates: {
      'debian-13': { vmid: TEMPLATE_VMIDS[0]!, perNode: Object.fromEntries(NODES.map((n, i) => [n, TEMPLATE_VMIDS[i]!])) },
    },
  },
});
const { sim } = env;
const journalDir = mkdtempSync(join(tmpdir(), 'egress-bench-bulk-'));
const logger = createLogger({ sinks: [] });
// The inventory as the app runs it (visible window), feeding each create's address step.
const listeners = new Set<Parameters<AddressFeed['subscribe']>[0]>();
const inventory = createInventoryService({
  clusters: env.directory,
  publish: (d) => listeners.forEach((l) => l(d)),
  logger,
  visibleIntervalMs: scaled(INVENTORY_CADENCE_MS),
  agentRetry: {
    ...defaultAgentRetry,
    baseMs: scaled(defaultAgentRetry.baseMs),
    maxMs: scaled(defaultAgentRetry.maxMs),
    nearBootMs: scaled(defaultAgentRetry.nearBootMs ?? defaultAgentRetry.baseMs),
  },
});
const addresses: AddressFeed = {
  row: (c, vmid) => inventory.vm(c, vmid),
  subscribe: (l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
/** Per create task: when (simulated ms) its address step ended, and how. */
const addressAt = new Map<string, { at: number; state: string }>();
let addressDone: (() => void) | undefined;
const manager = createTaskManager({
  directory: env.directory,
  journalDir,
  logger,
  addresses,
  onOperationFinished: (clusterId) => inventory.refreshAfterOperation(clusterId),
  publish: (e) => {
    if (e.name !== 'tasks.update' || e.payload.kind !== 'create-proxy') return;
    const state = e.payload.address?.state;
    if ((state === 'ready' || state === 'gave-up') && !addressAt.has(e.payload.id)) {
      addressAt.set(e.payload.id, { at: sim.clock.now(), state });
      addressDone?.();
    }
  },
});
inventory.start();

/** Resolves once every task in `ids` has its address step settled (ready or gave up). */
async function addressesOf(ids: readonly string[]): Promise<void> {
  for (;;) {
    if (ids.every((id) => addressAt.has(id))) return;
    await new Promise<void>((resolve) => (addressDone = resolve));
  }
}

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
 * create still runs the seed upload, the resize and the start, then the guest boots until its agent reports
 * the address (agentDelayMs after the start; `tail` is all of that). Three lower bounds:
 * - bandwidth: every byte crosses the one storage, so the copies take n·c back to back, the first no sooner
 *   than `o`, and the last create's tail follows its copy: o + n·c + tail;
 * - clone slots: at most `limit` clones hold the storage at once and each holds it at least o + c, so some
 *   slot runs ceil(n / limit) clones in a row: ceil(n / limit)·(o + c) + tail;
 * - node slots (4 creates per node, each held from its clone to its start): ceil(n / perNode)·(o + c + tail − boot) + boot.
 * The goal's floor is the first (issue 11: bytes over bandwidth, plus start and boot); the other two are printed.
 */
function floorSeconds(n: number, nodeName: string, templateVmid: number) {
  const o = sim.physics.overheadMs.qmclone / 1000;
  const c = sim.physics.cloneSeconds(templateVmid, STORAGE, nodeName) - o;
  const seedBytes = 64 * 1024; // a typical NoCloud seed is ~45 KB; the upload is bound by its overhead
  const upload = sim.physics.uploadSeconds(nodeName, SEED_STORAGE, seedBytes);
  // Resize and start: the simulator's fixed 1 s tasks. The boot: the agent answers agentDelayMs after the VM runs
  // (main/simulator/routes/vm-agent.ts counts from `startedAt`, set when the start task ends).
  const start = 1;
  const boot = AGENT_DELAY_MS / 1000;
  const tail = upload + 1 + start + boot;
  const limit = defaultLimits.clonesPerStorage;
  const proxmoxTail = tail - boot;
  // The goal's floor: the bytes to copy over the storage's bandwidth, plus the start and the boot.
  const bandwidth = o + n * c + tail;
  // What the limits add (reported, not the goal's floor): each clone slot runs its clones' overhead and copy in
  // a row; a node slot is held from the clone to the end of the start (the address wait holds none).
  const slots = Math.ceil(n / limit) * (o + c) + tail;
  const nodeSlots = Math.ceil(n / defaultLimits.perNode) * (o + c + proxmoxTail) + boot;
  return { seconds: bandwidth, o, c, tail, bandwidth, slots, nodeSlots };
}

/** A request's route, with the reads told apart by what they are for (the route alone mixes them). */
function requestKind(r: (typeof sim.requests.records)[number]): string {
  if (r.route === '/cluster/resources') {
    if (r.query.type) return `GET /cluster/resources?type=${r.query.type}`;
    return 'GET /cluster/resources (the inventory, placement, the create lookups: lookup.ts)';
  }
  if (r.method === 'GET' && r.route === '/nodes/{node}/qemu/{vmid}/config') {
    const vmid = Number(r.path.split('/')[4]);
    return `GET /nodes/{node}/qemu/{vmid}/config (${TEMPLATE_VMIDS.includes(vmid) ? 'template' : 'proxy'})`;
  }
  return `${r.method} ${r.route}`;
}

try {
  console.log(
    `bench-bulk: ${COUNT} proxies over ${NODES.length} nodes, ${STORAGE} local per node (${(sim.physics.bandwidth(NODES[0]!, STORAGE) / 1e6).toFixed(0)} MB/s), one template per node, limits ${JSON.stringify(defaultLimits)}, clone and upload times from the physics, agent delay ${AGENT_DELAY_MS / 1000} s (F21), timeScale ${SCALE}, client pace ${PACE ? `${PACE.requests}/node/s (simulated), engaged ${PACE.engage ?? 'always'}` : 'off'} (${PACE === APP_CLIENT_PACE ? "the app's setting" : "NOT the app's setting"}, main/services/clusters/client-policy.ts)`,
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
  await addressesOf(warm.taskIds);
  await inventory.idle();
  mostCopies.clear();
  const beforeBulk = [...sim.requests.records];
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
  const proxmoxSimMs = sim.clock.now() - simStarted;
  const proxmoxDoneAt = Date.now();
  // Proxmox's part is done: each create is then waiting for its address (issue 23: it runs until it has one) or has it.
  const failed = ends.filter((t) => t.state !== 'succeeded' && !(t.state === 'running' && t.address?.state === 'waiting'));
  if (failed.length) throw new Error(`${failed.length} create(s) did not succeed: ${failed[0]?.message}`);
  const creates = taskIds;
  await addressesOf(creates);
  const wallRealMs = performance.now() - started;
  const simMs = Math.max(...creates.map((id) => addressAt.get(id)!.at)) - simStarted;
  const wallMs = simMs; // the ratio is on simulated time: the floor is
  clearInterval(copySampler);
  const gaveUp = creates.filter((id) => addressAt.get(id)!.state !== 'ready');
  if (gaveUp.length) throw new Error(`${gaveUp.length} create(s) got no address`);

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
      `floor on ${f.node} (${f.n} creates): clone overhead ${f.o.toFixed(2)} s + copy ${f.c.toFixed(2)} s alone; after the clone ${f.tail.toFixed(2)} s (upload, resize, start, boot ${AGENT_DELAY_MS / 1000} s); physical floor (bandwidth + start + boot) ${f.bandwidth.toFixed(2)} s; the limits' bounds: clone slots ${f.slots.toFixed(2)} s, node slots ${f.nodeSlots.toFixed(2)} s`,
    );
  console.log(
    `wall to the last address ${(wallMs / 1000).toFixed(2)} s simulated (${(wallRealMs / 1000).toFixed(2)} s real at timeScale ${SCALE}; Proxmox's part of every create done at ${(proxmoxSimMs / 1000).toFixed(2)} s); floor ${floor.toFixed(2)} s; ratio ${ratio.toFixed(3)} (goal <= ${WALL_GOAL}: ${(ratio / WALL_GOAL).toFixed(2)} of goal)`,
  );
  // When each node's creates got through Proxmox: the clones' copies end early, the starts show what the pace and
  // the node slots add (the floor has the last start at about o + n·c + upload + resize + start).
  for (const n of NODES) {
    const ends = (type: string) =>
      [...sim.tasks.tasks.values()]
        .filter((t) => t.node === n && t.type === type && t.simStart >= simStarted)
        .map((t) => ((t.simEnd ?? simStarted) - simStarted) / 1000);
    const last = (type: string) => Math.max(0, ...ends(type)).toFixed(2);
    console.log(`on ${n}: last clone ended at ${last('qmclone')} s, last start ended at ${last('qmstart')} s`);
  }
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
  console.log('requests per create by route (all nodes):');
  for (const [route, n] of [...byRoute].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(4)}  ${(n / COUNT).toFixed(2)}/create  ${route}`);
  const busiest = [...load].sort((a, b) => b.total - a.total)[0];
  if (busiest) {
    // Where the busiest node's requests go, per create placed there, before Proxmox's part of every create was done
    // (what delays the last start) and after it (the boot wait: agent reads, inventory listings).
    const here = placed.get(busiest.node) ?? 1;
    const mine = new Map<string, { before: number; after: number }>();
    for (const r of records) {
      if ((r.loadNode ?? r.node) !== busiest.node) continue;
      const row = mine.get(requestKind(r)) ?? { before: 0, after: 0 };
      if ((r.at ?? 0) <= proxmoxDoneAt) row.before++;
      else row.after++;
      mine.set(requestKind(r), row);
    }
    const sum = (k: 'before' | 'after') => [...mine.values()].reduce((a, v) => a + v[k], 0);
    console.log(`requests at ${busiest.node}'s pveproxy by kind (${here} creates placed there; before / after Proxmox's part of every create was done):`);
    for (const [kind, n] of [...mine].sort((a, b) => b[1].before + b[1].after - a[1].before - a[1].after))
      console.log(`  ${String(n.before).padStart(4)} ${String(n.after).padStart(4)}  ${((n.before + n.after) / here).toFixed(2)}/create  ${kind}`);
    console.log(`  ${String(sum('before')).padStart(4)} ${String(sum('after')).padStart(4)}  ${((sum('before') + sum('after')) / here).toFixed(2)}/create  all`);
  }
  // BENCH_TIMELINE=<node>[,<node>]: each such node's requests and tasks in time order (simulated s from the bulk's start), to see
  // where its request budget idles.
  for (const timelineNode of (process.env.BENCH_TIMELINE ?? '').split(',').filter(Boolean)) {
    const epochStart = Date.now() - (sim.clock.now() - simStarted);
    const lines: Array<[number, string]> = [];
    // The second before the bulk too: its sends still count in the pace's first window.
    for (const r of [...beforeBulk.filter((b) => (b.at ?? 0) >= epochStart - 2000), ...records])
      if ((r.loadNode ?? r.node) === timelineNode) lines.push([((r.at ?? 0) - epochStart) / 1000, `req  ${requestKind(r)} ${r.path.split('/').slice(-2).join('/')}`]);
    for (const t of sim.tasks.tasks.values())
      if (t.node === timelineNode && t.simStart >= simStarted)
        lines.push([(t.simStart - simStarted) / 1000, `task ${t.type} ${t.id} until ${(((t.simEnd ?? simStarted) - simStarted) / 1000).toFixed(2)}`]);
    console.log(`timeline on ${timelineNode}:`);
    for (const [at, what] of lines.sort((a, b) => a[0] - b[0])) console.log(`  ${at.toFixed(2).padStart(7)}  ${what}`);
  }
  const stats = Object.entries(env.client.peakRequestsPerNode());
  console.log(`most requests on the wire per node (client) ${JSON.stringify(Object.fromEntries(stats))}`);
  const pace = env.client.paceStats();
  console.log(`client pace: requests that waited their turn per node ${JSON.stringify(Object.fromEntries(Object.entries(pace.pace).map(([k, v]) => [k, v.waited])))} (since the client started); GETs that shared an identical one ${pace.sharedReads}`);
} finally {
  inventory.stop();
  await manager.close();
  await env.close();
  rmSync(journalDir, { recursive: true, force: true });
}
