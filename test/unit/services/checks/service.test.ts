/**
 * The check service over a hand-written inventory and proxy check, the real
 * history database in memory and a hand-moved clock: who is checked (running
 * marked proxies with an address; not a switched-off cluster or proxy, kept
 * across restarts), battery pauses when asked, and where results go (the
 * history, the window's event, main's own listeners on the main bus).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InventoryDelta, VmRow } from '../../../../shared/channels/inventory';
import type { ProxyCheckResult, ProxyTestInput } from '../../../../shared/channels/proxy-check';
import { defaultSettings, type AppSettings } from '../../../../shared/domain/profile';
import { AppError } from '../../../../main/errors/app-error';
import { createEventBus } from '../../../../main/ipc/event-bus';
import { createMemoryLogger } from '../../../../main/log/logger';
import type { PowerState } from '../../../../main/services/checks/power-state';
import { createCheckService } from '../../../../main/services/checks/service';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { CheckRecord } from '../../../../main/services/history/types';
import { ManualTimers } from '../../../support/services/inventory/manual-timers';

const MINUTE = 60_000;

function row(vmid: number, patch: Partial<VmRow> = {}): VmRow {
  return {
    clusterId: 'c',
    vmid,
    node: 'pve1',
    name: `proxy-${vmid}`,
    state: 'running',
    status: 'running',
    owner: 'marked',
    tags: [],
    address: `127.0.0.${vmid % 200}`,
    ...patch,
  };
}

/** A power state the test drives by hand. */
function handPower() {
  const listeners = {
    suspend: new Set<() => void>(),
    resume: new Set<() => void>(),
    battery: new Set<() => void>(),
    ac: new Set<() => void>(),
  };
  let onBattery = false;
  const sub = (set: Set<() => void>) => (l: () => void) => (set.add(l), () => void set.delete(l));
  const power: PowerState = {
    onSuspend: sub(listeners.suspend),
    onResume: sub(listeners.resume),
    onBattery: sub(listeners.battery),
    onAC: sub(listeners.ac),
    isOnBattery: () => onBattery,
  };
  return {
    power,
    battery() {
      onBattery = true;
      for (const l of listeners.battery) l();
    },
    ac() {
      onBattery = false;
      for (const l of listeners.ac) l();
    },
  };
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function setup(opts: { rows: VmRow[]; settings?: Partial<AppSettings>; dataDir?: string }) {
  const timers = new ManualTimers();
  const logger = createMemoryLogger();
  const rows = [...opts.rows];
  let settings: AppSettings = { ...defaultSettings, ...opts.settings };
  const bus = createEventBus(logger);
  const history = openHistoryDatabase({ file: ':memory:', logger, now: () => timers.now() });
  const tested: ProxyTestInput[] = [];
  /** VMs the check finds stopped while the inventory still lists them running. */
  const stoppedSince = new Set<number>();
  const published: CheckRecord[] = [];
  bus.subscribe((name, payload) => {
    if (name === 'checks.result') published.push(payload as CheckRecord);
  });
  const proxyCheck = {
    async test(input: ProxyTestInput): Promise<ProxyCheckResult> {
      tested.push(input);
      const vm = rows.find((r) => r.clusterId === input.clusterId && r.vmid === input.vmid);
      if (!vm || vm.status !== 'running' || stoppedSince.has(vm.vmid)) throw new AppError('permanent', 'not running', 'start it');
      const base = { address: vm.address!, port: input.port, protocol: input.protocol, targetUrl: 'http://127.0.0.1/ip' };
      return vm.vmid === 666
        ? {
            ...base,
            reachable: false,
            httpStatus: 502,
            problem: { kind: 'transient', stage: 'request', message: 'The proxy answered 502.', hint: 'Look at the proxy.' },
          }
        : { ...base, reachable: true, latencyMs: 40 + (vm.vmid % 7), httpStatus: 200, egressAddress: '203.0.113.9' };
    },
  };
  const hand = handPower();
  const inventory = {
    snapshot: () => ({
      revision: 1,
      clusters: [...new Set(rows.map((r) => r.clusterId))].map((clusterId) => ({
        clusterId,
        name: clusterId,
        status: { state: 'ok' as const, failures: 0, intervalMs: 5000 },
        nodes: [],
        vms: rows.filter((r) => r.clusterId === clusterId),
      })),
    }),
    vm: (clusterId: string, vmid: number) => rows.find((r) => r.clusterId === clusterId && r.vmid === vmid),
  };
  const service = createCheckService({
    inventory,
    proxyCheck,
    history,
    bus,
    settings: () => settings,
    dataDir: opts.dataDir,
    power: hand.power,
    timers,
    logger,
  });
  const heard: CheckRecord[] = [];
  closers.push(bus.main.on('checks.result', (record) => heard.push(record)));
  service.start();
  closers.push(() => {
    service.stop();
    history.close();
  });
  const delta = (d: Partial<InventoryDelta> & { clusterId: string }) =>
    bus.publish('inventory.delta', { revision: 2, added: [], changed: [], removed: [], ...d });
  return {
    timers,
    rows,
    stoppedSince,
    service,
    history,
    tested,
    published,
    heard,
    hand,
    logger,
    delta,
    setSettings(patch: Partial<AppSettings>) {
      settings = { ...settings, ...patch };
      bus.publish('settings.changed', settings);
    },
    async advance(ms: number) {
      for (let t = 0; t < ms; t += 1000) {
        timers.advance(Math.min(1000, ms - t));
        await new Promise((r) => setImmediate(r));
      }
    },
    checkedVmids: () => [...new Set(tested.map((t) => t.vmid))].sort(),
  };
}

describe('scheduled checks: who is checked', () => {
  it('checks running marked proxies with an address every interval; not a stopped VM, one without address, or a foreign VM', async () => {
    const s = setup({
      rows: [
        row(101),
        row(102, { status: 'stopped', state: 'stopped', address: undefined }),
        row(103, { address: undefined }),
        row(104, { owner: 'foreign' }),
      ],
    });
    await s.advance(5 * MINUTE);
    expect(s.checkedVmids()).toEqual([101]);
    await s.advance(10 * MINUTE);
    expect(s.tested.filter((t) => t.vmid === 101)).toHaveLength(3);
  });

  it('skips a cluster switched off in Settings, and every cluster when checks are off', async () => {
    const s = setup({ rows: [row(101), row(201, { clusterId: 'd' })] });
    s.setSettings({ checksOffClusters: ['d'] });
    await s.advance(5 * MINUTE);
    expect(s.checkedVmids()).toEqual([101]);
    s.setSettings({ checksEnabled: false });
    const before = s.tested.length;
    await s.advance(10 * MINUTE);
    expect(s.tested.length).toBe(before);
    expect(s.service.history({ clusterId: 'c', vmid: 101, hours: 1 }).idleReason).toMatch(/off in Settings/);
  });

  it('issue 24: keeps an expected exit typed, confirmed from the first good check, or cleared, across a restart; refuses one that is no address or CIDR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-checks-'));
    const first = setup({ rows: [row(101)], dataDir });
    expect(() => first.service.setExpectedExit({ clusterId: 'c', vmid: 101, expected: 'vpn.example' })).toThrow(
      /"vpn.example" is not an IPv4 or IPv6 address or CIDR.*The expected exit was not changed/,
    );
    expect(() => first.service.setExpectedExit({ clusterId: 'c', vmid: 101, confirmLearned: true })).toThrow(/nothing to confirm/);
    first.service.exitPrefs.learn('c', 101, '203.0.113.5');
    expect(first.service.history({ clusterId: 'c', vmid: 101, hours: 1 }).learnedExit).toBe('203.0.113.5');
    expect(first.service.setExpectedExit({ clusterId: 'c', vmid: 101, confirmLearned: true })).toEqual({ expectedExit: ['203.0.113.5'] });
    expect(first.service.setExpectedExit({ clusterId: 'c', vmid: 101, expected: '203.0.113.0/28, 2001:db8::/48' })).toEqual({
      expectedExit: ['203.0.113.0/28', '2001:db8::/48'],
    });
    closers.pop()!();
    const second = setup({ rows: [row(101)], dataDir });
    expect(second.service.exitPrefs.expected('c', 101)).toEqual(['203.0.113.0/28', '2001:db8::/48']);
    expect(second.service.setExpectedExit({ clusterId: 'c', vmid: 101, clear: true })).toEqual({});
  });

  it('issue 24: with an expected exit, proposes the latest address outside it (a proxy moved to another VLAN), withdraws it when checks are back inside, and tells the alerts when the user confirms', async () => {
    const s = setup({ rows: [row(101)] });
    const changed: string[] = [];
    s.service.exitPrefs.onChange((clusterId, vmid) => changed.push(`${clusterId}/${vmid}`));
    s.service.exitPrefs.learn('c', 101, '203.0.113.5');
    s.service.setExpectedExit({ clusterId: 'c', vmid: 101, confirmLearned: true });
    expect(changed).toEqual(['c/101']);
    const exit = () => s.service.history({ clusterId: 'c', vmid: 101, hours: 1 });
    s.service.exitPrefs.learn('c', 101, '203.0.113.5');
    expect(exit().learnedExit).toBeUndefined();
    s.service.exitPrefs.learn('c', 101, '198.51.100.20');
    s.service.exitPrefs.learn('c', 101, '198.51.100.21');
    expect(exit()).toMatchObject({ expectedExit: ['203.0.113.5'], learnedExit: '198.51.100.21' });
    s.service.exitPrefs.learn('c', 101, '203.0.113.5');
    expect(exit().learnedExit).toBeUndefined();
    s.service.exitPrefs.learn('c', 101, '198.51.100.21');
    expect(s.service.setExpectedExit({ clusterId: 'c', vmid: 101, confirmLearned: true })).toEqual({ expectedExit: ['198.51.100.21'] });
    expect(changed).toEqual(['c/101', 'c/101']);
  });

  it("keeps a proxy's off switch across a restart, and forgets it when the VM is deleted", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-checks-'));
    const first = setup({ rows: [row(101), row(102)], dataDir });
    expect(first.service.setProxyEnabled('c', 102, false)).toEqual({ enabled: false });
    await first.advance(5 * MINUTE);
    expect(first.checkedVmids()).toEqual([101]);
    closers.pop()!();

    const second = setup({ rows: [row(101), row(102)], dataDir });
    await second.advance(5 * MINUTE);
    expect(second.checkedVmids()).toEqual([101]);
    expect(second.service.history({ clusterId: 'c', vmid: 102, hours: 1 })).toMatchObject({
      enabled: false,
      idleReason: 'Scheduled checks are off for this proxy.',
    });

    // VM 102 is deleted and a new VM gets its VMID: it starts switched on.
    second.rows.splice(1, 1);
    second.delta({ clusterId: 'c', removed: [102] });
    second.rows.push(row(102));
    second.delta({ clusterId: 'c', added: [row(102)] });
    await second.advance(5 * MINUTE);
    expect(second.checkedVmids()).toEqual([101, 102]);
  });

  it('stops checking a proxy once the inventory reports it stopped or removed', async () => {
    const s = setup({ rows: [row(101), row(102)] });
    await s.advance(5 * MINUTE);
    s.rows[0] = row(101, { status: 'stopped', state: 'stopped', address: undefined });
    s.delta({ clusterId: 'c', changed: [s.rows[0]] });
    s.rows.splice(1, 1);
    s.delta({ clusterId: 'c', removed: [102] });
    const before = s.tested.length;
    await s.advance(15 * MINUTE);
    expect(s.tested.length).toBe(before);
  });
});

describe('scheduled checks: power', () => {
  it('pauses on battery only when the user asked, and resumes on mains', async () => {
    const s = setup({ rows: [row(101)] });
    s.hand.battery();
    await s.advance(5 * MINUTE);
    expect(s.tested).toHaveLength(1);

    s.setSettings({ pauseChecksOnBattery: true });
    await s.advance(15 * MINUTE);
    expect(s.tested).toHaveLength(1);

    s.hand.ac();
    await s.advance(5 * MINUTE);
    expect(s.tested).toHaveLength(2);
  });
});

describe('scheduled checks: results', () => {
  it("records each result, publishes it to the window and hands it to main's own listeners (the alert engine's)", async () => {
    const s = setup({ rows: [row(101), row(666)] });
    await s.advance(5 * MINUTE);
    const good = s.history.checks('c', 101, 0);
    expect(good).toEqual([
      expect.objectContaining({ ok: true, origin: 'scheduled', latencyMs: 43, httpStatus: 200, egressAddress: '203.0.113.9' }),
    ]);
    const bad = s.history.checks('c', 666, 0);
    expect(bad).toEqual([expect.objectContaining({ ok: false, httpStatus: 502, stage: 'request', problem: 'The proxy answered 502.' })]);
    expect(s.published.map((r) => r.vmid).sort()).toEqual([101, 666]);
    expect(s.heard.find((record) => record.vmid === 666)).toEqual(bad[0]);

    const latest = s.service.latest('c');
    expect(latest.proxies.find((p) => p.vmid === 101)).toMatchObject({ latest: { ok: true }, trend: [43] });
    expect(latest.proxies.find((p) => p.vmid === 666)).toMatchObject({ latest: { ok: false }, trend: [null] });
  });

  it("records Test as a manual check, and uses Test's protocol and port for the scheduled ones after it", async () => {
    const s = setup({ rows: [row(101)] });
    await s.service.manualTest({ clusterId: 'c', vmid: 101, protocol: 'socks5', port: 1080 });
    expect(s.history.checks('c', 101, 0)).toEqual([expect.objectContaining({ origin: 'manual', ok: true })]);
    expect(s.heard).toHaveLength(1);
    await s.advance(5 * MINUTE);
    expect(s.tested.at(-1)).toMatchObject({ protocol: 'socks5', port: 1080 });
    expect(s.service.history({ clusterId: 'c', vmid: 101, hours: 1 })).toMatchObject({
      endpoint: { protocol: 'socks5', port: 1080 },
      checks: [{ origin: 'manual' }, { origin: 'scheduled' }],
    });
  });

  it('records nothing when the VM stopped between the listing and the check', async () => {
    const s = setup({ rows: [row(101)] });
    // The inventory has not noticed yet: the check itself finds the VM stopped.
    s.stoppedSince.add(101);
    await s.advance(5 * MINUTE);
    expect(s.tested).toHaveLength(1);
    expect(s.history.checks('c', 101, 0)).toEqual([]);
    expect(s.published).toEqual([]);
  });
});
