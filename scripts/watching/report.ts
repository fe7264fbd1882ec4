/** bench-watching's report: its tables, the ratios, what the hidden window still polls and why, and the markdown section. */
import { PULSE_CALLS, PULSE_CYCLE_CITE, PULSE_NOT_REPLAYED, PVE_UI_NOT_REPLAYED, PVE_UI_STORES, SOURCES } from './schedules';
import { busiest, NODES, perMinute, type Tally, type WatchingResult } from './tally';

/** Which alert needs an endpoint polled while the window is hidden (main/services/alerts). */
export const HIDDEN_NEEDS: { match: RegExp; alert: string }[] = [
  {
    match: /^GET \/cluster\/resources$/,
    alert:
      'proxy-not-running (proxy-rules.ts: a proxy that stopped), seed-storage-low (cluster-rules.ts: the seed storage rows) and the scheduled checks\u2019 list of running proxies and their addresses',
  },
  { match: /agent\/network-get-interfaces$/, alert: "egress-address-changed and the checks: a started or restarted proxy's address" },
  {
    match: /^GET \/nodes\/\{node\}\/qemu\/\{vmid\}\/config$/,
    alert: 'the proxy mark of a VM that appeared (proxy-not-running is for marked proxies only)',
  },
  {
    match: /^GET \/nodes\/\{node\}\/status$/,
    alert: "node-unreachable (cluster-rules.ts: each node's own check, health/service.ts every 30 s)",
  },
  {
    match: /^GET \/cluster\/resources\?type=vm$/,
    alert:
      "template-unsuitable (template-watch.ts every 10 min: the catalogue templates' listing; the health check reads it too, but not while hidden)",
  },
  {
    match: /^GET \/nodes\/\{node\}\/qemu\/\{vmid\}\/config$/,
    alert: 'template-unsuitable (template-watch.ts: the templates\u2019 config)',
  },
];

function table(t: Tally): string[] {
  const mins = t.durationMs / 60_000;
  const endpoints = [...new Set([...t.counts.values()].flatMap((m) => [...m.keys()]))].sort();
  return [
    `| ${t.label} (${mins.toFixed(1)} min) | ${NODES.join(' | ')} |`,
    `| --- | ${NODES.map(() => '---:').join(' | ')} |`,
    ...endpoints.map((e) => `| \`${e}\` | ${NODES.map((n) => ((t.counts.get(n)?.get(e) ?? 0) / mins).toFixed(2)).join(' | ')} |`),
    `| **all** | ${NODES.map((n) => `**${perMinute(t, n).toFixed(2)}**`).join(' | ')} |`,
  ];
}

export function print(t: Tally): void {
  console.log(`\n${t.label}: ${(t.durationMs / 60_000).toFixed(2)} simulated minutes; requests per minute per node by endpoint`);
  for (const line of table(t)) console.log(`  ${line}`);
  console.log(`${t.label}: busiest node ${busiest(t).toFixed(2)} requests/min, all nodes ${perMinute(t).toFixed(2)} requests/min`);
}

/** Which endpoints of the hidden phase an alert needs, and which none does. */
export function hiddenNeeds(r: WatchingResult): { endpoint: string; rate: number; needs: string[] }[] {
  const endpoints = [...new Set([...r.hidden.counts.values()].flatMap((m) => [...m.keys()]))].sort();
  return endpoints.map((e) => ({
    endpoint: e,
    rate: perMinute(r.hidden, undefined, (x) => x === e),
    needs: HIDDEN_NEEDS.filter((n) => n.match.test(e)).map((n) => n.alert),
  }));
}

export interface Ratios {
  visiblePveUi: number;
  /** All nodes together: the app over the web UI. */
  visiblePveUiCluster: number;
  /**
   * The open VM on another node than the one the URL reaches: the web UI's VM summary then loads that node, and the
   * busiest node serves only its cluster-wide stores (the app's drawer VM moves too, but its one RRD read is noise).
   */
  visiblePveUiVmElsewhere: number;
  visiblePulse: number;
  hiddenPveUi: number;
  hiddenPulse: number;
  bulkAll: number;
  bulkWatching: number;
  bulkPveUi: number;
  bulkPulse: number;
}

export function ratiosOf(r: WatchingResult): Ratios {
  const watching = new Set([...r.visible.counts.values()].flatMap((m) => [...m.keys()]));
  const bulkWatching = busiest(r.bulk, (e) => watching.has(e));
  return {
    visiblePveUi: busiest(r.visible) / busiest(r.pveUi),
    visiblePveUiCluster: perMinute(r.visible) / perMinute(r.pveUi),
    visiblePveUiVmElsewhere:
      busiest(r.visible) /
      Math.max(
        perMinute(r.pveUi, NODES[0], (e) => !e.includes('/qemu/')),
        perMinute(r.pveUi, NODES[0], (e) => e.includes('/qemu/')),
      ),
    visiblePulse: busiest(r.visible) / busiest(r.pulse),
    hiddenPveUi: busiest(r.hidden) / busiest(r.pveUi),
    hiddenPulse: busiest(r.hidden) / busiest(r.pulse),
    bulkAll: busiest(r.bulk),
    bulkWatching,
    bulkPveUi: bulkWatching / busiest(r.pveUi),
    bulkPulse: bulkWatching / busiest(r.pulse),
  };
}

/** The "Cost of watching" section of docs/performance.md (scripts/bench.ts copies it from between the markers). */
export function markdown(r: WatchingResult): string[] {
  const q = ratiosOf(r);
  const o = r.options;
  return [
    '## Cost of watching',
    '',
    `Issue 27 §3 (\`npm run bench:watching\`, scripts/bench-watching.ts; the schedules in scripts/watching/schedules.ts): the load on each`,
    `node's pveproxy, in requests per minute, of the app and of the Proxmox web UI and Pulse replayed against the same simulated cluster`,
    `(${o.proxies} proxies, ${o.stopped} of them stopped, on ${NODES.length} nodes; ${o.minutes} simulated minutes per phase), counted by the simulator's request log. Calls that name no`,
    `node are served by the node the URL reaches (${NODES[0]}), so it is the busiest for all three; the goal is about the busiest node.`,
    '',
    '**The same information on screen.** The app: the Proxies list (every proxy, its state and address), node health and storage use',
    "(Nodes), the Tasks view, and one proxy's drawer open with its charts (an hour of RRD). The web UI: the resource tree and the",
    "datacenter summary (VM states, nodes, storage), the task log at the bottom, and one VM's summary (its status, its addresses from",
    'the guest agent, its charts); the web UI shows the addresses of the one open VM only, so it shows less than the app for this',
    'count. Pulse: its dashboard, which is its whole poller (it polls from its server whatever the browser shows).',
    "One difference the other way: the app reads the drawer's charts when it opens (main/services/rrd, cached for the",
    "timeframe's step) and does not redraw them while it stays open; the web UI's RRDStore reloads every 30 s.",
    '',
    '| Ratio (busiest node) | Value | Goal |',
    '| --- | ---: | --- |',
    `| app / web UI, every view open | ${q.visiblePveUi.toFixed(3)} | <= 0.25 |`,
    `| app / web UI, every view open, all nodes together | ${q.visiblePveUiCluster.toFixed(3)} | <= 0.25 |`,
    `| app / web UI, every view open, the open VM on another node than the URL's (the web UI's busiest node then serves its cluster-wide stores alone) | ${q.visiblePveUiVmElsewhere.toFixed(3)} | <= 0.25 |`,
    `| app / Pulse, every view open | ${q.visiblePulse.toFixed(3)} | <= 0.25 |`,
    `| app hidden / web UI (its tab hidden polls the same) | ${q.hiddenPveUi.toFixed(3)} | report |`,
    `| app hidden / Pulse (the same with no window) | ${q.hiddenPulse.toFixed(3)} | report |`,
    `| app's watching endpoints during a bulk of ${o.bulk} / web UI | ${q.bulkPveUi.toFixed(3)} | report |`,
    `| app's watching endpoints during a bulk of ${o.bulk} / Pulse | ${q.bulkPulse.toFixed(3)} | report |`,
    '',
    `During the bulk the busiest node served ${q.bulkAll.toFixed(2)} requests a minute in all (the creates' own writes and task listings included), ${q.bulkWatching.toFixed(2)} of them on the endpoints the app polls when idle.`,
    '',
    ...[r.visible, r.hidden, r.bulk, r.pveUi, r.pulse].flatMap((t) => [...table(t), '']),
    '**What this bench changed** (2026-12-02). The node health poller (main/services/health) checks each node on its own poller,',
    "and the core's check asked, for every node, two things that are the cluster's: `GET /version` and `GET /cluster/resources?type=vm`",
    '(the templates). The pollers drift apart, so the client\u2019s sharing of identical GETs in flight missed them: three of each per',
    '30 s cycle on three nodes. The listing is now read once per cycle per cluster and the version once per 5 minutes',
    '(health/shared-reads.ts). And with no window shown, a',
    "node's check asks only `GET /nodes/{node}/status` (what node-unreachable needs), with a full check the moment a window is shown",
    'again. Measured before: 25.3 requests a minute on the busiest node with every view open, 16.5 hidden (2-minute phases); after the',
    'first change (the version still once per cycle) 19.5 and 8.7 (10-minute phases); the figures above are with both.',
    '',
    '**Window hidden: what is still polled, and which alert needs it** (requests per minute, all nodes):',
    '',
    ...hiddenNeeds(r).map(
      (h) => `- \`${h.endpoint}\` ${h.rate.toFixed(2)}/min: ${h.needs.length ? h.needs.join('; ') : '**no alert needs it**'}`,
    ),
    '',
    `**Sources read** (pve-manager ${SOURCES.pveManager}, proxmox-widget-toolkit ${SOURCES.widgetToolkit}, Pulse ${SOURCES.pulse}):`,
    '',
    ...PVE_UI_STORES.map(
      (s) => `- Web UI, ${s.name}: every ${s.intervalMs / 1000} s after the previous load plus twice its duration; ${s.cite}.`,
    ),
    ...PVE_UI_NOT_REPLAYED.map((s) => `- Web UI, not replayed: ${s}.`),
    `- Pulse, the cycle: ${PULSE_CYCLE_CITE}.`,
    ...PULSE_CALLS.map((c) => `- Pulse, ${c.name}${c.ttlMs ? ` (at most every ${c.ttlMs / 60_000} min)` : ' (every cycle)'}: ${c.cite}.`),
    ...PULSE_NOT_REPLAYED.map((s) => `- Pulse, not replayed: ${s}.`),
    '',
  ];
}
