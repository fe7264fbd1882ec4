/**
 * Scheduled checks end to end in the composed app, on the simulated demo
 * cluster and its loopback proxies (nothing leaves the machine): the good
 * proxies record their latency and the demo's egress address, the broken
 * one (150003, tinyproxy answering 502) records a failure with its reason,
 * a stopped VM is not checked, Test is recorded as a manual check, and every
 * result reaches main's own listeners (bus.main `checks.result`) and the
 * `checks.*` channels.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createLogger } from '../../../../main/log/logger';
import { DEMO_BROKEN_VMID, DEMO_VLAN4_EGRESS_ADDRESS } from '../../../../main/services/demo/demo-proxies';
import type { CheckRecord } from '../../../../main/services/history/types';
import type { LatestChecks, CheckHistory } from '../../../../shared/channels/checks';
import type { InventorySnapshot } from '../../../../shared/channels/inventory';
import { egressAttempts } from '../../../support/no-egress';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const timers = new ManualTimers();
let app: ComposedApp;
const heard: { record: CheckRecord }[] = [];

async function request<T>(channel: string, input: unknown): Promise<T> {
  const answer = await app.router.dispatch(channel, input, ctx);
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
  return answer.value as T;
}

/** Moves the checks' clock in steps, letting the real loopback checks that started finish between steps. */
async function advance(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 5000) {
    timers.advance(Math.min(5000, ms - t));
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  timers.advance(Date.now());
  app = composeApp({
    mode: 'browser',
    version: '0.0.0-test',
    runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
    logger: createLogger({ sinks: [] }),
    demo: 'force',
    checks: { timers },
  });
  app.bus.main.on('checks.result', (record) => heard.push({ record }));
  // The demo's first listing, with the guests' addresses.
  await vi.waitFor(
    async () => {
      const snap = await request<InventorySnapshot>('inventory.snapshot', {});
      const demo = snap.clusters.find((c) => c.clusterId === 'demo');
      expect(demo?.vms.find((v) => v.vmid === DEMO_BROKEN_VMID)?.address).toBeTruthy();
    },
    { timeout: 20_000, interval: 100 },
  );
});
afterAll(async () => {
  await app?.dispose();
});

describe('scheduled checks on the demo cluster', () => {
  it('records the good proxies with latency and egress address, and the broken one as failed with its reason', async () => {
    await advance(5 * 60_000);
    await vi.waitFor(
      () => {
        for (const vmid of [150_001, 150_002, DEMO_BROKEN_VMID]) expect(app.history.checks('demo', vmid, 0).length).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 50 },
    );
    const squid = app.history.checks('demo', 150_001, 0)[0]!;
    expect(squid).toMatchObject({ ok: true, origin: 'scheduled', httpStatus: 200, egressAddress: DEMO_VLAN4_EGRESS_ADDRESS });
    expect(squid.latencyMs).toBeGreaterThanOrEqual(0);
    // microsocks speaks SOCKS5 on 1080: the demo's preset told the schedule, no Test needed.
    expect(app.history.checks('demo', 150_002, 0)[0]).toMatchObject({ ok: true, egressAddress: DEMO_VLAN4_EGRESS_ADDRESS });
    const broken = app.history.checks('demo', DEMO_BROKEN_VMID, 0)[0]!;
    expect(broken).toMatchObject({ ok: false, origin: 'scheduled', httpStatus: 502, stage: 'request' });
    expect(broken.problem).toMatch(/502/);
    // 150005 is stopped: never checked.
    expect(app.history.checks('demo', 150_005, 0)).toEqual([]);
    expect(heard.find((h) => h.record.vmid === DEMO_BROKEN_VMID)?.record).toMatchObject({ ok: false, httpStatus: 502, stage: 'request' });
    expect(egressAttempts()).toEqual([]);
  });

  it('answers the table and the drawer through their channels', async () => {
    const latest = await request<LatestChecks>('checks.latest', { clusterId: 'demo' });
    expect(latest.proxies.find((p) => p.vmid === 150_001)).toMatchObject({ latest: { ok: true }, trend: [expect.any(Number)] });
    // Failed checks draw no latency; the alerts confirm a first failure with one more check 30 s later (checkSoon).
    const broken = latest.proxies.find((p) => p.vmid === DEMO_BROKEN_VMID)!;
    expect(broken).toMatchObject({ latest: { ok: false } });
    expect(broken.trend.length).toBeGreaterThan(0);
    expect(broken.trend.every((point) => point === null)).toBe(true);
    const history = await request<CheckHistory>('checks.history', { clusterId: 'demo', vmid: DEMO_BROKEN_VMID, hours: 24 });
    expect(history).toMatchObject({ enabled: true, endpoint: { protocol: 'http', port: 8888 }, intervalMinutes: 5 });
    expect(history.checks.at(-1)).toMatchObject({ ok: false, httpStatus: 502 });
  });

  it('records Test as a manual check and hands it to the listeners', async () => {
    const before = heard.length;
    const result = await request<{ reachable: boolean }>('proxies.test', {
      clusterId: 'demo',
      vmid: 150_001,
      protocol: 'http',
      port: 3128,
    });
    expect(result.reachable).toBe(true);
    expect(app.history.checks('demo', 150_001, 0).at(-1)).toMatchObject({ origin: 'manual', ok: true, egressAddress: DEMO_VLAN4_EGRESS_ADDRESS });
    expect(heard.slice(before).map((h) => h.record.origin)).toEqual(['manual']);
  });

  it('stops checking a proxy switched off in its drawer', async () => {
    await request('checks.setProxyEnabled', { clusterId: 'demo', vmid: 150_001, enabled: false });
    const before = app.history.checks('demo', 150_001, 0).length;
    await advance(10 * 60_000);
    await vi.waitFor(() => expect(app.history.checks('demo', DEMO_BROKEN_VMID, 0).length).toBeGreaterThanOrEqual(3), {
      timeout: 15_000,
      interval: 50,
    });
    expect(app.history.checks('demo', 150_001, 0).length).toBe(before);
  });
});
