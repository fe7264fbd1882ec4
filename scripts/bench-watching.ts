/**
 * Issue 27 §3, the cost of watching: the app's steady load on each node's pveproxy, in requests per minute per node
 * by endpoint, with every view open (the window visible, one proxy drawer open with its charts), with the window
 * hidden, and during a bulk of creates; beside it the Proxmox web UI and Pulse replayed for the same information on
 * screen (watching/schedules.ts: what each asks and how often, from their sources, file and line) against the same
 * simulated cluster, counted by the same request log (the simulator's `requests.records`).
 *
 * The app is its own main services, as main/app/compose.ts and monitoring.ts build them: the inventory (its
 * listing, configs and agent reads), the node health poller, the RRD service (the drawer's charts, read when it
 * opens), the alerts' template watch, and for the bulk the task manager with the inventory's address feed. Not
 * here, because they send nothing to pveproxy: the scheduled checks (they cross the proxies, main/services/checks),
 * the tasks view (the app's own task list, in main), the alert engine's tick (in memory). Cleanup's scan runs when
 * asked.
 *
 * One clock: the simulator's (timeScale, argv[3], default 0.1) drives the app's pollers (a Timers on it) and the
 * replayers, so N minutes are N simulated minutes. Prints; asserts nothing. `measureWatching` is what the soak
 * (issue 27 §1) is to call.
 *
 *   npx tsx scripts/bench-watching.ts [minutes=10] [bulk=10] [timeScale=0.1]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultBudgets } from '../main/core';
import { createLogger } from '../main/log/logger';
import { APP_CLIENT_PACE } from '../main/services/clusters/client-policy';
import { createHealthService } from '../main/services/health/service';
import { createInventoryService } from '../main/services/inventory/service';
import { ManualVisibility } from '../main/services/inventory/visibility';
import type { Timers } from '../main/services/polling/timers';
import { createRrdService } from '../main/services/rrd/service';
import { createTemplateWatch } from '../main/services/alerts/template-watch';
import type { TemplateRules } from '../main/services/alerts/template-rules';
import type { AddressFeed } from '../main/services/tasks/address-watch';
import { createTaskManager } from '../main/services/tasks/task-manager';
import { goodTemplate, proxyVm, SEED_STORAGE, type ClusterDefinition, type NodeDefinition } from '../main/simulator';
import { startSimCluster } from '../test/support/sim-cluster';
import { MARKDOWN_BEGIN, MARKDOWN_END } from './watching/markers';
import { replayPulse, replayPveUi } from './watching/replay';
import { hiddenNeeds, markdown, print, ratiosOf } from './watching/report';
import { NODES, tally, type Tally, type WatchingOptions, type WatchingResult } from './watching/tally';
export { NODES, endpointOf, perMinute, busiest, type Tally, type WatchingOptions, type WatchingResult } from './watching/tally';
import { SOURCES, type ClusterView } from './watching/schedules';

const TEMPLATE_VMIDS = [9001, 9101, 9201];
const GiB = 1024 ** 3;

function node(name: string, templateVmid: number, vms: NodeDefinition['vms']): NodeDefinition {
  return {
    node: name,
    online: true,
    storages: [
      { storage: 'local', type: 'dir', content: 'iso,vztmpl,backup', totalBytes: 100 * GiB },
      { storage: 'local-lvm', type: 'lvmthin', content: 'images,rootdir', totalBytes: 800 * GiB },
      { storage: SEED_STORAGE, type: 'dir', content: 'iso', totalBytes: 20 * GiB, usedBytes: 0 },
    ],
    bridges: [{ iface: 'vmbr0', vlanAware: true, cidr: '192.168.0.8/24' }],
    vms: [goodTemplate(templateVmid, 'local-lvm'), ...vms],
    isos: { [SEED_STORAGE]: [] },
  };
}

/** `proxies` marked proxies over three nodes, round robin, the last `stopped` of them stopped. */
export function watchedCluster(proxies: number, stopped: number): ClusterDefinition {
  const all = Array.from({ length: proxies }, (_, i) => {
    const vmid = 1000 + i;
    const uid = `00000000-0000-4000-8000-${String(vmid).padStart(12, '0')}`;
    return proxyVm(vmid, `proxy-${vmid}`, uid, i >= proxies - stopped ? 'stopped' : 'running');
  });
  return {
    clusterName: 'watched',
    nodes: NODES.map((n, i) =>
      node(
        n,
        TEMPLATE_VMIDS[i]!,
        all.filter((_, j) => j % NODES.length === i),
      ),
    ),
  };
}

export async function measureWatching(options: WatchingOptions): Promise<WatchingResult> {
  const scale = options.timeScale;
  const scaled = (ms: number) => ms * scale;
  const env = await startSimCluster({
    dataset: watchedCluster(options.proxies, options.stopped),
    timeScale: scale,
    agentDelayMs: 50_000,
    budgets: {
      ...defaultBudgets,
      youngPollMs: scaled(defaultBudgets.youngPollMs),
      youngForMs: scaled(defaultBudgets.youngForMs),
      oldPollMs: scaled(defaultBudgets.oldPollMs),
    },
    client: {
      pace: APP_CLIENT_PACE && {
        ...APP_CLIENT_PACE,
        perMs: scaled(APP_CLIENT_PACE.perMs),
        guardMs: scaled(APP_CLIENT_PACE.guardMs ?? 0),
        settleMs: scaled(APP_CLIENT_PACE.settleMs ?? 60_000),
      },
    },
    profile: {
      templates: { 'debian-13': { vmid: TEMPLATE_VMIDS[0]!, perNode: Object.fromEntries(NODES.map((n, i) => [n, TEMPLATE_VMIDS[i]!])) } },
    },
  });
  const { sim } = env;
  const clock = sim.clock;
  // The app's pollers on the simulator's clock: their ms are simulated ms.
  const timers: Timers = {
    now: () => clock.now(),
    setTimeout: (fn, ms) => {
      const t = setTimeout(fn, Math.max(0, ms * scale));
      t.unref();
      return t;
    },
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  };
  const logger = createLogger({ sinks: [] });
  const visibility = new ManualVisibility('visible');
  const listeners = new Set<Parameters<AddressFeed['subscribe']>[0]>();
  const inventory = createInventoryService({
    clusters: env.directory,
    publish: (d) => listeners.forEach((l) => l(d)),
    logger,
    visibility,
    timers,
  });
  const health = createHealthService({
    clusters: env.directory,
    publish: () => undefined,
    logger,
    nodeStats: (id) => inventory.nodes(id),
    timers,
    visibility,
  });
  const rrd = createRrdService({ directory: env.directory, logger, now: () => clock.now() });
  const rules = { observeCatalogue: () => undefined } as unknown as TemplateRules;
  const templateWatch = createTemplateWatch({
    directory: env.directory,
    rules,
    logger,
    intervalMs: scaled(10 * 60_000),
    soonMs: scaled(3_000),
  });
  const journalDir = mkdtempSync(join(tmpdir(), 'egress-bench-watching-'));
  const addressesReady = new Set<string>();
  let addressSettled: (() => void) | undefined;
  const manager = createTaskManager({
    directory: env.directory,
    journalDir,
    logger,
    addresses: { row: (c, vmid) => inventory.vm(c, vmid), subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) },
    onOperationFinished: (clusterId) => inventory.refreshAfterOperation(clusterId),
    publish: (e) => {
      if (e.name !== 'tasks.update' || e.payload.kind !== 'create-proxy') return;
      const state = e.payload.address?.state;
      if (state === 'ready' || state === 'gave-up') {
        addressesReady.add(e.payload.id);
        addressSettled?.();
      }
    },
  });
  const sleep = (ms: number) => clock.sleep(ms);
  const phase = async (label: string, ms: number): Promise<Tally> => {
    sim.requests.clear();
    const start = clock.now();
    await sleep(ms);
    return tally(label, sim.requests.records, clock.now() - start);
  };
  const minutes = options.minutes * 60_000;
  const someProxy = [...sim.state.vms.values()].find((v) => !v.template && v.power === 'running')!;
  try {
    inventory.start();
    health.start();
    templateWatch.start();
    // The first look (issue 27 §4 is about its cost, not this one), then a minute for the agent reads to settle.
    await inventory.idle();
    await sleep(60_000);

    // Every view open: the Proxies list, node health and storage (the inventory and health), one proxy's drawer
    // with its charts (one RRD read at the hour timeframe, as RrdGraphs does when it opens).
    sim.requests.clear();
    const visibleStart = clock.now();
    await rrd.vm({ clusterId: env.cluster.id, node: someProxy.node, vmid: someProxy.vmid, timeframe: 'hour' });
    await sleep(minutes);
    const visible = tally('app, every view open', sim.requests.records, clock.now() - visibleStart);

    visibility.set('hidden');
    const hidden = await phase('app, window hidden', minutes);
    visibility.set('visible');

    // A bulk of creates with the window visible, from the click to the last address.
    await sleep(10_000);
    sim.requests.clear();
    const bulkStart = clock.now();
    const { taskIds } = await manager.createProxies({
      clusterId: env.cluster.id,
      template: 'debian-13',
      machineType: 'medium',
      name: 'proxy-bulk',
      count: options.bulk,
      cloudInit: '#cloud-config\n',
    });
    await Promise.all(taskIds.map((id) => manager.wait(id)));
    while (!taskIds.every((id) => addressesReady.has(id))) await new Promise<void>((resolve) => (addressSettled = resolve));
    const bulk = tally(`app, during a bulk of ${options.bulk} creates`, sim.requests.records, clock.now() - bulkStart);

    inventory.stop();
    health.stop();
    templateWatch.stop();
    await inventory.idle();
    await health.idle();
    await sleep(5_000);

    const view: ClusterView = {
      nodes: NODES,
      openVm: { node: someProxy.node, vmid: someProxy.vmid },
      vms: [...sim.state.vms.values()]
        .filter((v) => !v.template)
        .map((v) => ({ node: v.node, vmid: v.vmid, running: v.power === 'running' })),
    };
    const token = sim.tokens.admin!;
    const target = { url: sim.url, caPem: sim.caPem, tokenId: token.tokenId, secret: token.secret, now: () => clock.now(), sleep };
    sim.requests.clear();
    let start = clock.now();
    await replayPveUi(target, view, minutes);
    const pveUi = tally('Proxmox web UI', sim.requests.records, clock.now() - start);
    sim.requests.clear();
    start = clock.now();
    await replayPulse(target, view, minutes);
    const pulse = tally('Pulse', sim.requests.records, clock.now() - start);
    return { options, visible, hidden, bulk, pveUi, pulse };
  } finally {
    inventory.stop();
    health.stop();
    templateWatch.stop();
    await manager.close();
    await env.close();
    rmSync(journalDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options: WatchingOptions = {
    minutes: Number(process.argv[2] ?? 10),
    bulk: Number(process.argv[3] ?? 10),
    timeScale: Number(process.argv[4] ?? 0.1),
    proxies: 100,
    stopped: 5,
  };
  console.log(
    `bench-watching: ${options.proxies} proxies (${options.stopped} stopped) on ${NODES.length} nodes, ${options.minutes} simulated minutes per phase, a bulk of ${options.bulk}, timeScale ${options.timeScale}; sources: pve-manager ${SOURCES.pveManager}, proxmox-widget-toolkit ${SOURCES.widgetToolkit}, Pulse ${SOURCES.pulse}`,
  );
  const r = await measureWatching(options);
  for (const t of [r.visible, r.hidden, r.bulk, r.pveUi, r.pulse]) print(t);
  const q = ratiosOf(r);
  console.log('');
  console.log(`ratio app/PVE-UI (every view open, busiest node) ${q.visiblePveUi.toFixed(3)} (goal <= 0.25)`);
  console.log(`ratio app/PVE-UI (every view open, all nodes together) ${q.visiblePveUiCluster.toFixed(3)} (goal <= 0.25)`);
  console.log(
    `ratio app/PVE-UI (every view open, the open VM on another node than the URL's) ${q.visiblePveUiVmElsewhere.toFixed(3)} (goal <= 0.25)`,
  );
  console.log(`ratio app/Pulse (every view open, busiest node) ${q.visiblePulse.toFixed(3)} (goal <= 0.25)`);
  console.log(`ratio app/PVE-UI (window hidden, busiest node) ${q.hiddenPveUi.toFixed(3)}`);
  console.log(`ratio app/Pulse (window hidden, busiest node) ${q.hiddenPulse.toFixed(3)}`);
  console.log(
    `during the bulk: busiest node ${q.bulkAll.toFixed(2)} requests/min in all, ${q.bulkWatching.toFixed(2)} of them on the watching endpoints; ratio of the latter app/PVE-UI ${q.bulkPveUi.toFixed(3)}, app/Pulse ${q.bulkPulse.toFixed(3)}`,
  );
  for (const h of hiddenNeeds(r))
    console.log(`hidden ${h.endpoint} ${h.rate.toFixed(2)}/min in all: ${h.needs.length ? h.needs.join('; ') : 'NO ALERT NEEDS IT'}`);
  console.log(`\n${MARKDOWN_BEGIN}\n${markdown(r).join('\n')}\n${MARKDOWN_END}`);
}
