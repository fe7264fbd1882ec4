/**
 * Each alert rule on its own, over the real history database in memory and
 * a hand-moved clock: raised once (one notification while open), resolved
 * once when the condition clears, thresholds and switches honoured, and an
 * alert left open by a previous run resolved at the first evaluation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeRow, VmRow } from '../../../../shared/channels/inventory';
import { alertThresholds, type AlertRuleSettings } from '../../../../shared/domain/alert-rules';
import { createLogger } from '../../../../main/log/logger';
import { ClusterRules } from '../../../../main/services/alerts/cluster-rules';
import { AlertEngine, type AlertEvent } from '../../../../main/services/alerts/engine';
import { ProxyRules } from '../../../../main/services/alerts/proxy-rules';
import { TemplateRules } from '../../../../main/services/alerts/template-rules';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { CheckRecord, HistoryStore } from '../../../../main/services/history/types';

let clock = 1_700_000_000_000;
let store: HistoryStore;
let events: AlertEvent[];
let settings: AlertRuleSettings;
/** The confirmation checks the rules asked for (a failure short of the threshold). */
let confirmations: string[];

function build() {
  const engine = new AlertEngine({ store, now: () => clock, onEvent: (e) => events.push(e) });
  const thresholds = () => alertThresholds(settings);
  return {
    engine,
    proxies: new ProxyRules(engine, thresholds, undefined, (clusterId, vmid) => confirmations.push(`${clusterId}/${vmid}`)),
    cluster: new ClusterRules(engine, thresholds, () => 'Home lab'),
  };
}

const kinds = () => events.map((e) => `${e.kind} ${e.alert.rule} ${e.alert.target}`);

const vm = (state: VmRow['state'], extra: Partial<VmRow> = {}): VmRow => ({
  clusterId: 'c1',
  vmid: 105,
  node: 'pve1',
  name: 'egress-a',
  state,
  status: state === 'running' ? 'running' : 'stopped',
  owner: 'marked',
  tags: [],
  ...extra,
});

const check = (ok: boolean, extra: Partial<CheckRecord> = {}): CheckRecord => ({
  clusterId: 'c1',
  vmid: 105,
  at: clock,
  ok,
  origin: 'scheduled',
  ...(ok ? { httpStatus: 200, egressAddress: '203.0.113.5', latencyMs: 40 } : { stage: 'connect', problem: 'connection refused' }),
  ...extra,
});
const proxy = { clusterId: 'c1', vmid: 105, name: 'egress-a', node: 'pve1' };

const nodes = (usedGiB: number, totalGiB = 20): NodeRow[] => [
  {
    node: 'pve1',
    status: 'online',
    storages: [{ storage: 'seeds', content: ['iso'], shared: false, usedBytes: usedGiB * 2 ** 30, totalBytes: totalGiB * 2 ** 30 }],
  },
];

beforeEach(() => {
  store = openHistoryDatabase({ file: ':memory:', logger: createLogger({ sinks: [] }), now: () => clock });
  events = [];
  settings = {};
  confirmations = [];
});
afterEach(() => store.close());

describe('proxy not running', () => {
  it('raises once after the threshold for a proxy seen running, and resolves once when it runs again', () => {
    const { proxies, engine } = build();
    proxies.observeVm(vm('running'));
    proxies.observeVm(vm('stopped'));
    expect(events).toEqual([]); // 60 s not yet passed
    clock += 59_000;
    engine.tick();
    expect(events).toEqual([]);
    clock += 1_000;
    engine.tick();
    proxies.observeVm(vm('stopped'));
    engine.tick();
    expect(kinds()).toEqual(['raised proxy-not-running vm:105']);
    expect(events[0]!.alert.reason).toMatch(/egress-a \(105\) on node pve1 is stopped/);
    proxies.observeVm(vm('running'));
    proxies.observeVm(vm('running'));
    expect(kinds()).toEqual(['raised proxy-not-running vm:105', 'resolved proxy-not-running vm:105']);
    expect(store.openAlerts()).toEqual([]);
  });

  it('says nothing for a stop of this app, a VM never seen running, a foreign VM, or a node that is down', () => {
    settings = { proxyNotRunningSeconds: 0 };
    const { proxies } = build();
    proxies.observeVm(vm('stopped')); // never seen running
    proxies.observeVm(vm('running', { vmid: 106, owner: 'foreign' }));
    proxies.observeVm(vm('stopped', { vmid: 106, owner: 'foreign' }));
    proxies.observeVm(vm('running', { vmid: 107 }));
    proxies.observeVm(vm('unknown', { vmid: 107 }));
    proxies.observeVm(vm('running', { vmid: 108 }));
    proxies.stoppedByThisApp('c1', 108);
    proxies.observeVm(vm('stopped', { vmid: 108 }));
    expect(events).toEqual([]);
  });

  it('honours a threshold of 0 (at once)', () => {
    settings = { proxyNotRunningSeconds: 0 };
    const { proxies } = build();
    proxies.observeVm(vm('running'));
    proxies.observeVm(vm('stopped'));
    expect(kinds()).toEqual(['raised proxy-not-running vm:105']);
  });

  it('resolves every alert of a proxy that was deleted', () => {
    settings = { proxyNotRunningSeconds: 0 };
    const { proxies } = build();
    proxies.observeVm(vm('running'));
    proxies.observeVm(vm('stopped'));
    proxies.removed('c1', 105);
    expect(kinds()).toEqual(['raised proxy-not-running vm:105', 'resolved proxy-not-running vm:105']);
  });
});

describe('egress failing', () => {
  it.each([
    { threshold: undefined, raisedAfter: 2 },
    { threshold: 1, raisedAfter: 1 },
    { threshold: 4, raisedAfter: 4 },
  ])(
    'raises after $raisedAfter failures in a row (setting $threshold), once, and resolves at the next success',
    ({ threshold, raisedAfter }) => {
      if (threshold !== undefined) settings = { egressFailingChecks: threshold };
      const { proxies } = build();
      for (let i = 1; i < raisedAfter; i++) proxies.observeCheck(check(false), proxy);
      expect(events).toEqual([]);
      // Each failure short of the threshold asks for a confirmation check soon, rather than waiting a whole interval.
      expect(confirmations).toEqual(Array.from({ length: raisedAfter - 1 }, () => 'c1/105'));
      proxies.observeCheck(check(false), proxy);
      proxies.observeCheck(check(false), proxy);
      proxies.observeCheck(check(false), proxy);
      expect(kinds()).toEqual(['raised egress-failing vm:105']);
      expect(events[0]!.alert.reason).toContain('connection refused');
      expect(events[0]!.alert.hint).toMatch(/port does not answer/);
      proxies.observeCheck(check(true), proxy);
      proxies.observeCheck(check(true), proxy);
      expect(kinds()).toEqual(['raised egress-failing vm:105', 'resolved egress-failing vm:105']);
    },
  );

  it('needs the failures in a row: a success between them starts the count again', () => {
    const { proxies } = build();
    proxies.observeCheck(check(false), proxy);
    proxies.observeCheck(check(true), proxy);
    proxies.observeCheck(check(false), proxy);
    expect(events).toEqual([]);
  });

  it('raises nothing while the rule is off', () => {
    settings = { disabled: ['egress-failing'] };
    const { proxies } = build();
    for (let i = 0; i < 5; i++) proxies.observeCheck(check(false), proxy);
    expect(events).toEqual([]);
  });
});

describe('egress address changed', () => {
  it('raises when a successful check sees another address, once, and resolves when the old one is back', () => {
    const { proxies } = build();
    proxies.observeCheck(check(true), proxy);
    proxies.observeCheck(check(true, { egressAddress: '198.51.100.9' }), proxy);
    proxies.observeCheck(check(true, { egressAddress: '198.51.100.10' }), proxy);
    expect(kinds()).toEqual(['raised egress-address-changed vm:105']);
    expect(events[0]!.alert.reason).toContain('198.51.100.9 (before: 203.0.113.5)');
    proxies.observeCheck(check(true), proxy);
    expect(kinds()).toEqual(['raised egress-address-changed vm:105', 'resolved egress-address-changed vm:105']);
  });

  it('resolves when the user accepts the new address, and compares with it from then on', () => {
    const { proxies } = build();
    proxies.observeCheck(check(true), proxy);
    proxies.observeCheck(check(true, { egressAddress: '198.51.100.9' }), proxy);
    proxies.accepted('c1', 105);
    proxies.observeCheck(check(true, { egressAddress: '198.51.100.9' }), proxy);
    expect(kinds()).toEqual(['raised egress-address-changed vm:105', 'resolved egress-address-changed vm:105']);
  });

  it('takes the address before a restart from the history', () => {
    const engine = new AlertEngine({ store, now: () => clock, onEvent: (e) => events.push(e) });
    const before = { ...check(true), at: clock - 300_000 };
    const proxies = new ProxyRules(
      engine,
      () => alertThresholds({}),
      () => before,
    );
    proxies.observeCheck(check(true, { egressAddress: '198.51.100.9' }), proxy);
    expect(kinds()).toEqual(['raised egress-address-changed vm:105']);
  });
});

describe('node unreachable', () => {
  it('raises once the node has not answered for longer than the threshold, and resolves at its first answer', () => {
    const { cluster, engine } = build();
    const health = (reason: 'Unreachable' | 'Timeout' | 'Reachable' | 'Forbidden') => ({
      clusterId: 'c1',
      node: 'pve2',
      reason,
      message: 'no route to host',
    });
    cluster.observeNodeHealth(health('Unreachable'));
    clock += 30_000;
    cluster.observeNodeHealth(health('Timeout'));
    engine.tick();
    expect(events).toEqual([]);
    clock += 30_000; // 60 s since the first failure
    engine.tick();
    cluster.observeNodeHealth(health('Unreachable'));
    expect(kinds()).toEqual(['raised node-unreachable node:pve2']);
    // A refusal is an answer: the node is reachable.
    cluster.observeNodeHealth(health('Forbidden'));
    cluster.observeNodeHealth(health('Reachable'));
    expect(kinds()).toEqual(['raised node-unreachable node:pve2', 'resolved node-unreachable node:pve2']);
  });

  it('forgets a failure that cleared before the threshold', () => {
    settings = { nodeUnreachableSeconds: 120 };
    const { cluster, engine } = build();
    cluster.observeNodeHealth({ clusterId: 'c1', node: 'pve2', reason: 'Unreachable', message: '' });
    clock += 100_000;
    cluster.observeNodeHealth({ clusterId: 'c1', node: 'pve2', reason: 'Reachable', message: '' });
    clock += 100_000;
    engine.tick();
    expect(events).toEqual([]);
  });
});

describe('seed storage low', () => {
  it.each([
    { percent: undefined, usedGiB: 18.5, raised: true },
    { percent: undefined, usedGiB: 17.5, raised: false },
    { percent: 25, usedGiB: 16, raised: true },
  ])('free under the threshold ($percent %, $usedGiB of 20 GiB used) raises: $raised', ({ percent, usedGiB, raised }) => {
    if (percent !== undefined) settings = { seedStorageFreePercent: percent };
    const { cluster } = build();
    cluster.observeNodes('c1', nodes(usedGiB), 'seeds');
    cluster.observeNodes('c1', nodes(usedGiB), 'seeds');
    expect(kinds()).toEqual(raised ? ['raised seed-storage-low storage:pve1/seeds'] : []);
  });

  it('resolves once space is freed', () => {
    const { cluster } = build();
    cluster.observeNodes('c1', nodes(19), 'seeds');
    expect(events[0]!.alert.reason).toMatch(/seeds on pve1 has 5 % free \(1\.0 GiB of 20\.0 GiB\)/);
    cluster.observeNodes('c1', nodes(2), 'seeds');
    cluster.observeNodes('c1', nodes(2), 'seeds');
    expect(kinds()).toEqual(['raised seed-storage-low storage:pve1/seeds', 'resolved seed-storage-low storage:pve1/seeds']);
  });
});

describe('template no longer suitable', () => {
  const cloudInit = {
    key: 'debian',
    vmid: 9001,
    node: 'pve1',
    problems: [
      {
        code: 'cloud-init-drive',
        message: 'template 9001 has a Proxmox cloud-init drive on ide2',
        fix: 'Remove the Proxmox cloud-init drive: `qm set 9001 --delete ide2`.',
      },
    ],
  };
  const fine = { key: 'debian', vmid: 9001, node: 'pve1', problems: [] };

  it('says nothing of a template unsuitable since the first read (no change to announce), unless it is gone', () => {
    const { engine } = build();
    const rules = new TemplateRules(
      engine,
      () => alertThresholds(settings),
      () => 'Home lab',
    );
    rules.observeCatalogue('c1', [cloudInit]);
    expect(kinds()).toEqual([]);
    const notTemplate = { code: 'not-template', message: 'VM 9001 is not a template', fix: 'Make it a template: `qm template 9001`.' };
    rules.observeCatalogue('c1', [{ ...cloudInit, problems: [notTemplate] }]);
    expect(kinds()).toEqual(['raised template-unsuitable template:9001']);
  });

  it("raises per template on the doctor's verdict, with its fix as the hint, once, and resolves when it is suitable again", () => {
    const { engine } = build();
    const rules = new TemplateRules(
      engine,
      () => alertThresholds(settings),
      () => 'Home lab',
    );
    rules.observeCatalogue('c1', [fine, { key: 'alpine', vmid: 9002, node: 'pve2', problems: [] }]);
    rules.observeCatalogue('c1', [cloudInit]);
    rules.observeCatalogue('c1', [cloudInit]);
    expect(kinds()).toEqual(['raised template-unsuitable template:9001']);
    expect(events[0]!.alert).toMatchObject({
      label: 'template "debian" (VM 9001 on pve1) of Home lab',
      reason: 'Template "debian" (VM 9001 on pve1) can no longer be cloned: template 9001 has a Proxmox cloud-init drive on ide2.',
      hint: expect.stringMatching(/^Remove the Proxmox cloud-init drive: `qm set 9001 --delete ide2`\. Creates of "debian" fail/),
    });
    rules.observeCatalogue('c1', [fine]);
    expect(kinds()).toEqual(['raised template-unsuitable template:9001', 'resolved template-unsuitable template:9001']);
  });

  it('a template gone from the cluster raises; one taken out of the catalogue resolves; another cluster is left alone', () => {
    const { engine } = build();
    const rules = new TemplateRules(
      engine,
      () => alertThresholds(settings),
      () => 'Home lab',
    );
    rules.observeCatalogue('c1', [TemplateRules.missing('debian', 9001)]);
    rules.observeCatalogue('c2', [{ ...fine, vmid: 7001 }]);
    rules.observeCatalogue('c2', [{ ...cloudInit, vmid: 7001 }]);
    expect(events[0]!.alert.reason).toBe('Template "debian" (VM 9001) can no longer be cloned: VM 9001 does not exist.');
    rules.observeCatalogue('c1', []); // the profile no longer names it
    expect(kinds()).toEqual([
      'raised template-unsuitable template:9001',
      'raised template-unsuitable template:7001',
      'resolved template-unsuitable template:9001',
    ]);
  });

  it('switched off, raises nothing and resolves what it held', () => {
    const { engine } = build();
    const rules = new TemplateRules(
      engine,
      () => alertThresholds(settings),
      () => 'Home lab',
    );
    rules.observeCatalogue('c1', [fine]);
    rules.observeCatalogue('c1', [cloudInit]);
    settings = { disabled: ['template-unsuitable'] };
    rules.observeCatalogue('c1', [cloudInit]);
    expect(kinds()).toEqual(['raised template-unsuitable template:9001', 'resolved template-unsuitable template:9001']);
  });
});

describe('across a restart', () => {
  it('keeps an open alert (no second notification), and resolves it at the first evaluation once its condition cleared', () => {
    settings = { proxyNotRunningSeconds: 0 };
    const first = build();
    first.proxies.observeVm(vm('running'));
    first.proxies.observeVm(vm('stopped'));
    first.cluster.observeNodes('c1', nodes(19.5), 'seeds');
    expect(events).toHaveLength(2);

    // The app restarts: a new engine over the same database.
    events = [];
    const second = build();
    second.proxies.observeVm(vm('stopped')); // still stopped: the alert stays open, nothing new is said
    second.cluster.observeNodes('c1', nodes(1), 'seeds'); // freed while the app was closed
    expect(kinds()).toEqual(['resolved seed-storage-low storage:pve1/seeds']);
    expect(store.openAlerts().map((a) => a.rule)).toEqual(['proxy-not-running']);
    second.proxies.observeVm(vm('running'));
    expect(kinds()).toEqual(['resolved seed-storage-low storage:pve1/seeds', 'resolved proxy-not-running vm:105']);
  });
});
