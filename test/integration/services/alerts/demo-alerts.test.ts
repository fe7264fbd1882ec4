/**
 * Alerts end to end over the simulated demo cluster and loopback proxies
 * (nothing leaves the machine): the demo's failing proxy (150003, answering
 * 502), a proxy whose egress address changes, a node that goes down and
 * storage filling up. Each alert is raised once and resolved once, and each
 * raise and resolve reaches a webhook receiver on 127.0.0.1 in the three
 * formats, with the token only in its header.
 *
 * The services are joined here as the composition root joins them, so the
 * test holds the simulator (to take a node down, fill a storage) and can
 * stand its own loopback proxy in for 150001, whose egress address it sets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AlertView } from '../../../../shared/channels/alerts';
import { defaultSettings, type AppSettings } from '../../../../shared/domain/profile';
import { createEventBus } from '../../../../main/ipc/event-bus';
import { createLogger, createMemoryLogger } from '../../../../main/log/logger';
import { createAlertService, type AlertService } from '../../../../main/services/alerts/service';
import { FAILURE_CONFIRMATION_MS } from '../../../../main/services/alerts/proxy-rules';
import { defaultSendPolicy } from '../../../../main/services/alerts/webhook-sender';
import { createCheckService, type CheckService } from '../../../../main/services/checks/service';
import { MutableClusterDirectory } from '../../../../main/services/clusters/cluster';
import { startDemoCluster, type DemoCluster } from '../../../../main/services/demo/demo-cluster';
import { DEMO_BROKEN_VMID, DEMO_CHECK_NOTE } from '../../../../main/services/demo/demo-proxies';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { HistoryStore } from '../../../../main/services/history/types';
import { createMonitoring } from '../../../../main/app/monitoring';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { createRecordingNotifier } from '../../../../main/ports/notifier';
import { egressAttempts } from '../../../support/no-egress';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';
import { startWebhookReceiver, type WebhookReceiver } from '../../../support/webhook-receiver';

const SENTINEL = 'tk_SENTINEL-demo-alerts-5e4d3c2b1a';
const MOVED_VMID = 150_001;
const GiB = 2 ** 30;

const timers = new ManualTimers();
const logger = createMemoryLogger('info');
const notifier = createRecordingNotifier();
const raised: AlertView[] = [];
const resolved: AlertView[] = [];
let demo: DemoCluster;
let monitoring: ReturnType<typeof createMonitoring>;
let history: HistoryStore;
let checks: CheckService;
let alerts: AlertService;
let receiver: WebhookReceiver;
let settings: AppSettings = { ...defaultSettings };

/** A loopback proxy standing in for 150001, whose egress address the test sets; the echo it tunnels to answers it. */
const egress = { address: '203.0.113.47' };
let standIn: Server;
let standInEcho: Server;
/** VMIDs routed to the stand-in instead of their demo proxy (150003 "repaired"). */
const routedToStandIn = new Set<number>([MOVED_VMID]);

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startStandIn(): Promise<{ port: number; echoUrl: string }> {
  standInEcho = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(egress.address));
  const echoPort = await listen(standInEcho);
  standIn = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(egress.address));
  standIn.on('connect', (_req, socket: Socket) => {
    socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
    standInEcho.emit('connection', socket);
  });
  return { port: await listen(standIn), echoUrl: `http://127.0.0.1:${echoPort}/ip` };
}

/** Moves the checks' and alerts' clock in steps, letting the real loopback checks finish between steps. */
async function advance(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 5000) {
    timers.advance(Math.min(5000, ms - t));
    alerts.tick();
    await new Promise((r) => setTimeout(r, 5));
  }
}

const posts = (event: 'raised' | 'resolved', rule: string, target: string) =>
  receiver.received.filter(
    (r) =>
      r.path.startsWith('/hook') &&
      JSON.parse(r.body).event === event &&
      JSON.parse(r.body).rule === rule &&
      JSON.parse(r.body).target === target,
  );

function onceEach(rule: string, target: string) {
  expect(raised.filter((a) => a.rule === rule && a.target === target)).toHaveLength(1);
  expect(resolved.filter((a) => a.rule === rule && a.target === target)).toHaveLength(1);
  expect(history.openAlerts().filter((a) => a.rule === rule && a.target === target)).toEqual([]);
}

/** Every format got the raise and the resolve once: ntfy by title, Gotify by title, generic by its JSON. */
async function deliveredOnce(rule: string, target: string, label: string, title: string) {
  await alerts.delivery.idle();
  expect(posts('raised', rule, target)).toHaveLength(1);
  expect(posts('resolved', rule, target)).toHaveLength(1);
  for (const [prefix, titleOf] of [
    ['/ntfy/', (r: { headers: Record<string, unknown> }) => String(r.headers.title)],
    ['/gotify/', (r: { body: string }) => String(JSON.parse(r.body).title)],
  ] as const) {
    const mine = receiver.received.filter((r) => r.path.startsWith(prefix) && titleOf(r as never).endsWith(`${title}, ${label}`));
    expect(mine.map((r) => titleOf(r as never).split(':')[0])).toEqual(['Alert', 'Resolved']);
  }
  const generic = posts('raised', rule, target)[0]!;
  expect(generic.headers.authorization).toBe(`Bearer ${SENTINEL}`);
  expect(JSON.parse(generic.body)).toMatchObject({ source: 'egress-desk', clusterId: 'demo', label, ruleTitle: title, resolvedAt: null });
}

beforeAll(async () => {
  timers.advance(Date.now());
  const quiet = createLogger({ sinks: [] });
  demo = await startDemoCluster(quiet);
  // A clean start: every node up (the demo dataset has pv1-3 down), so each alert below is the test's own.
  demo.sim.faults.nodeUp('pv1-3');
  const standInAt = await startStandIn();
  const directory = new MutableClusterDirectory();
  directory.set({
    ...demo.cluster,
    demoProxies: {
      endpoint: (vmid) => demo.proxies.endpoint(vmid),
      route: async (vmid, port) =>
        routedToStandIn.has(vmid)
          ? { kind: 'listening', host: '127.0.0.1', port: standInAt.port, targetUrl: standInAt.echoUrl, note: DEMO_CHECK_NOTE }
          : demo.proxies.route(vmid, port),
    },
  });
  const bus = createEventBus(quiet);
  bus.subscribe((name, payload) => {
    if (name === 'alert.raised') raised.push(payload as AlertView);
    if (name === 'alert.resolved') resolved.push(payload as AlertView);
  });
  monitoring = createMonitoring(directory, bus, quiet, { health: { intervalMs: 3_600_000 } });
  history = openHistoryDatabase({ file: ':memory:', logger: quiet, now: () => timers.now() });
  checks = createCheckService({
    inventory: monitoring.inventory,
    proxyCheck: monitoring.proxyCheck,
    history,
    bus,
    settings: () => settings,
    timers,
    endpointHint: (_c, vmid) => demo.proxies.endpoint(vmid),
    logger: quiet,
  });
  alerts = createAlertService({
    history,
    bus,
    directory,
    inventorySnapshot: () => monitoring.inventory.snapshot(),
    inventoryVm: (clusterId, vmid) => monitoring.inventory.vm(clusterId, vmid),
    healthSnapshot: () => monitoring.health.snapshot(),
    settings: () => settings,
    updateSettings: (patch) => (settings = { ...settings, ...patch }),
    notifier,
    vault: createMemoryVault(),
    logger,
    now: () => timers.now(),
    tickMs: 3_600_000,
    sendPolicy: { ...defaultSendPolicy, sleep: async () => undefined },
    confirmFailure: (clusterId, vmid) => checks.checkSoon(clusterId, vmid, FAILURE_CONFIRMATION_MS),
  });
  receiver = await startWebhookReceiver();
  await alerts.targets.save({
    name: 'phone',
    format: 'ntfy',
    url: `${receiver.url}/ntfy`,
    topic: 'homelab',
    enabled: true,
    secret: SENTINEL,
  });
  await alerts.targets.save({ name: 'gotify', format: 'gotify', url: `${receiver.url}/gotify`, enabled: true, secret: SENTINEL });
  await alerts.targets.save({ name: 'hook', format: 'generic', url: `${receiver.url}/hook`, enabled: true, secret: SENTINEL });
  alerts.start();
  checks.start();
  await vi.waitFor(
    () => {
      const vms = monitoring.inventory.snapshot('demo').clusters[0]?.vms ?? [];
      expect(vms.find((v) => v.vmid === DEMO_BROKEN_VMID)?.address).toBeTruthy();
      expect(vms.find((v) => v.vmid === MOVED_VMID)?.address).toBeTruthy();
    },
    { timeout: 20_000, interval: 100 },
  );
  await monitoring.health.checkNow('demo');
});

afterAll(async () => {
  checks?.stop();
  await alerts?.close();
  monitoring?.close();
  history?.close();
  await demo?.close();
  standIn?.closeAllConnections();
  standIn?.close();
  standInEcho?.close();
  await receiver?.close();
});

describe('alerts on the demo cluster', () => {
  it('a proxy that stops carrying traffic: "egress failing" within one check interval plus 30 s, from 2 failed checks', async () => {
    const start = timers.now();
    await advance(5 * 60_000);
    await vi.waitFor(() => expect(history.checks('demo', DEMO_BROKEN_VMID, 0).length).toBeGreaterThanOrEqual(1), {
      timeout: 15_000,
      interval: 50,
    });
    // The first failure asks for a confirmation 30 s later, instead of waiting out the next interval.
    await advance(35_000);
    await vi.waitFor(() => expect(raised.filter((a) => a.rule === 'egress-failing')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const alert = raised.find((a) => a.rule === 'egress-failing')!;
    const raisedAt = Date.parse(alert.raisedAt);
    const [first, second] = history.checks('demo', DEMO_BROKEN_VMID, 0);
    expect([first!.ok, second!.ok]).toEqual([false, false]);
    expect(second!.at - first!.at).toBeLessThanOrEqual(30_000 + 5_000); // the confirmation, not the next turn
    expect(raisedAt - start).toBeLessThanOrEqual(5 * 60_000 + 30_000 + 5_000);
    expect(alert).toMatchObject({ target: `vm:${DEMO_BROKEN_VMID}`, reason: expect.stringMatching(/failed 2 times in a row: .*502/) });
    // The check result on main's bus carries no name: the alert names the proxy from its inventory row.
    expect(alert.label).toBe(`proxy ${monitoring.inventory.vm('demo', DEMO_BROKEN_VMID)!.name} (${DEMO_BROKEN_VMID})`);
    expect(notifier.notes.filter((n) => n.title.startsWith('Alert: Egress failing'))).toHaveLength(1);
    // More failing checks: still one alert, one notification.
    await advance(10 * 60_000);
    await vi.waitFor(() => expect(history.checks('demo', DEMO_BROKEN_VMID, 0).length).toBeGreaterThanOrEqual(4), {
      timeout: 15_000,
      interval: 50,
    });
    expect(raised.filter((a) => a.rule === 'egress-failing')).toHaveLength(1);

    routedToStandIn.add(DEMO_BROKEN_VMID); // repaired: it carries traffic again
    await advance(5 * 60_000);
    await vi.waitFor(() => expect(resolved.filter((a) => a.rule === 'egress-failing')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    onceEach('egress-failing', `vm:${DEMO_BROKEN_VMID}`);
    await deliveredOnce('egress-failing', `vm:${DEMO_BROKEN_VMID}`, alert.label, 'Egress failing');
  });

  it('a proxy whose egress address changes: raised at the check that sees it, resolved when the old address is back', async () => {
    egress.address = '198.51.100.23';
    await advance(5 * 60_000);
    await vi.waitFor(
      () => expect(raised.filter((a) => a.rule === 'egress-address-changed' && a.target === `vm:${MOVED_VMID}`)).toHaveLength(1),
      {
        timeout: 15_000,
        interval: 50,
      },
    );
    const alert = raised.find((a) => a.rule === 'egress-address-changed' && a.target === `vm:${MOVED_VMID}`)!;
    expect(alert.reason).toContain('now reaches the internet from 198.51.100.23 (before: 203.0.113.47)');
    egress.address = '203.0.113.47';
    await advance(5 * 60_000);
    await vi.waitFor(
      () => expect(resolved.filter((a) => a.rule === 'egress-address-changed' && a.target === `vm:${MOVED_VMID}`)).toHaveLength(1),
      {
        timeout: 15_000,
        interval: 50,
      },
    );
    onceEach('egress-address-changed', `vm:${MOVED_VMID}`);
    await deliveredOnce('egress-address-changed', `vm:${MOVED_VMID}`, alert.label, 'Egress address changed');
  });

  it('a node that goes down: raised once it has not answered for 60 s, resolved when it is back', async () => {
    demo.sim.faults.nodeDown('pv1-3');
    await monitoring.health.checkNow('demo');
    await advance(30_000);
    await monitoring.health.checkNow('demo');
    expect(raised.filter((a) => a.rule === 'node-unreachable')).toEqual([]);
    await advance(30_000);
    expect(raised.filter((a) => a.rule === 'node-unreachable')).toHaveLength(1);
    const alert = raised.find((a) => a.rule === 'node-unreachable')!;
    expect(alert).toMatchObject({ target: 'node:pv1-3', reason: expect.stringMatching(/^Node pv1-3 does not answer/) });
    await monitoring.health.checkNow('demo');
    demo.sim.faults.nodeUp('pv1-3');
    await monitoring.health.checkNow('demo');
    onceEach('node-unreachable', 'node:pv1-3');
    await deliveredOnce('node-unreachable', 'node:pv1-3', alert.label, 'Node unreachable');
  });

  it('storage filling up: the seed storage under 10 % free raises, freeing it resolves', async () => {
    const seeds = demo.sim.state.nodes.get('pv1-1')!.storages.get('proxy-seeds')!;
    seeds.usedBytes = seeds.totalBytes - 1 * GiB; // 5 % free
    await monitoring.inventory.refreshNow('demo');
    await monitoring.inventory.refreshNow('demo');
    expect(raised.filter((a) => a.rule === 'seed-storage-low')).toHaveLength(1);
    const alert = raised.find((a) => a.rule === 'seed-storage-low')!;
    expect(alert).toMatchObject({
      target: 'storage:pv1-1/proxy-seeds',
      reason: expect.stringContaining('has 5 % free (1.0 GiB of 20.0 GiB)'),
    });
    seeds.usedBytes = 2 * GiB;
    await monitoring.inventory.refreshNow('demo');
    onceEach('seed-storage-low', 'storage:pv1-1/proxy-seeds');
    await deliveredOnce('seed-storage-low', 'storage:pv1-1/proxy-seeds', alert.label, 'Seed storage low');
  });

  it('a proxy stopped outside the app: raised after 60 s stopped, resolved when it runs again', async () => {
    demo.sim.state.setPower(150_002, 'stopped'); // as from the Proxmox UI: no task of this app
    await monitoring.inventory.refreshNow('demo');
    expect(raised.filter((a) => a.rule === 'proxy-not-running')).toEqual([]);
    await advance(60_000);
    await monitoring.inventory.refreshNow('demo');
    expect(raised.filter((a) => a.rule === 'proxy-not-running')).toHaveLength(1);
    const alert = raised.find((a) => a.rule === 'proxy-not-running')!;
    expect(alert).toMatchObject({
      target: 'vm:150002',
      reason: expect.stringMatching(/is stopped\. It was running, and this app did not stop it\./),
    });
    demo.sim.state.setPower(150_002, 'running');
    await monitoring.inventory.refreshNow('demo');
    onceEach('proxy-not-running', 'vm:150002');
    await deliveredOnce('proxy-not-running', 'vm:150002', alert.label, 'Proxy not running');
  });

  it('never sent the token anywhere but its header, logged it, or connected off loopback', async () => {
    await alerts.delivery.idle();
    for (const r of receiver.received) {
      expect(r.body).not.toContain(SENTINEL);
      expect(r.path).not.toContain(SENTINEL);
      const holder = r.path.startsWith('/gotify/') ? 'x-gotify-key' : 'authorization';
      for (const [name, value] of Object.entries(r.headers)) if (name !== holder) expect(String(value)).not.toContain(SENTINEL);
    }
    expect(logger.lines.join('\n')).not.toContain(SENTINEL);
    expect(egressAttempts()).toEqual([]);
  });
});
