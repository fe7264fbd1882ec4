/**
 * Issue 24: the expected-exit rules on their own, over the real history database in memory: a proxy that leaves
 * outside its expected exit (an address, a CIDR or a set) raises once and resolves once it is back inside; a proxy
 * without one has its first good address learned, not asserted; two proxies of a distinct-exit pool (a tag) that
 * share an address raise until they differ.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertThresholds, type AlertRuleSettings } from '../../../../shared/domain/alert-rules';
import { createLogger } from '../../../../main/log/logger';
import { AlertEngine, type AlertEvent } from '../../../../main/services/alerts/engine';
import { ExitRules } from '../../../../main/services/alerts/exit-rules';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { CheckRecord, HistoryStore } from '../../../../main/services/history/types';

const clock = 1_700_000_000_000;
let store: HistoryStore;
let events: AlertEvent[];
let settings: AlertRuleSettings;
let expected: Map<number, string[]>;
let learned: Map<number, string>;

beforeEach(() => {
  store = openHistoryDatabase({ file: ':memory:', logger: createLogger({ sinks: [] }), now: () => clock });
  events = [];
  settings = {};
  expected = new Map();
  learned = new Map();
});
afterEach(() => store.close());

let changed: ((clusterId: string, vmid: number) => void) | undefined;

function build() {
  const engine = new AlertEngine({ store, now: () => clock, onEvent: (e) => events.push(e) });
  return new ExitRules(
    engine,
    () => alertThresholds(settings),
    {
      expected: (_c, vmid) => expected.get(vmid),
      learn: (_c, vmid, a) => void (learned.has(vmid) || learned.set(vmid, a)),
      onChange: (listener) => void (changed = listener),
    },
    () => settings.distinctExitTags ?? [],
  );
}

const good = (vmid: number, egressAddress: string): CheckRecord => ({
  clusterId: 'c1',
  vmid,
  at: clock,
  ok: true,
  origin: 'scheduled',
  httpStatus: 200,
  egressAddress,
  latencyMs: 30,
});
const proxy = (vmid: number, tags: string[] = []) => ({ clusterId: 'c1', vmid, name: `egress-${vmid}`, node: 'pve1', tags });
const kinds = () => events.map((e) => `${e.kind} ${e.alert.rule} ${e.alert.target}`);

describe('egress outside the expected exit', () => {
  it('learns the first good address of a proxy without one, and asserts nothing', () => {
    const rules = build();
    rules.observeCheck(good(105, '203.0.113.5'), proxy(105));
    rules.observeCheck(good(105, '198.51.100.1'), proxy(105));
    expect(learned.get(105)).toBe('203.0.113.5');
    expect(kinds()).toEqual([]);
  });

  it('raises once when a check leaves outside the CIDR, and resolves when it is back inside', () => {
    expected.set(105, ['203.0.113.0/28', '2001:db8::/48']);
    const rules = build();
    rules.observeCheck(good(105, '203.0.113.9'), proxy(105));
    rules.observeCheck(good(105, '198.51.100.1'), proxy(105));
    rules.observeCheck(good(105, '198.51.100.1'), proxy(105));
    expect(kinds()).toEqual(['raised egress-outside-expected vm:105']);
    expect(events[0]!.alert.reason).toContain('from 198.51.100.1, outside its expected exit 203.0.113.0/28, 2001:db8::/48');
    rules.observeCheck(good(105, '2001:db8:0:1::7'), proxy(105));
    expect(kinds()).toEqual(['raised egress-outside-expected vm:105', 'resolved egress-outside-expected vm:105']);
  });

  it('resolves at once when the user changes the expected exit to take the address in, without waiting for a check', () => {
    expected.set(105, ['203.0.113.5']);
    const rules = build();
    rules.observeCheck(good(105, '198.51.100.20'), proxy(105));
    expect(kinds()).toEqual(['raised egress-outside-expected vm:105']);
    expected.set(105, ['203.0.113.5', '198.51.100.0/24']);
    changed!('c1', 105);
    expect(kinds()).toEqual(['raised egress-outside-expected vm:105', 'resolved egress-outside-expected vm:105']);
    changed!('c1', 999); // a proxy never seen: nothing to judge
    expect(events).toHaveLength(2);
  });

  it('says nothing with the rule switched off', () => {
    expected.set(105, ['203.0.113.5']);
    settings = { disabled: ['egress-outside-expected'] };
    build().observeCheck(good(105, '198.51.100.1'), proxy(105));
    expect(kinds()).toEqual([]);
  });
});

describe('distinct exits shared', () => {
  it('raises for both proxies of a pool seen on one address, and resolves once they differ', () => {
    settings = { distinctExitTags: ['vpn-pool'] };
    const rules = build();
    rules.observeCheck(good(105, '203.0.113.5'), proxy(105, ['vpn-pool']));
    rules.observeCheck(good(106, '203.0.113.5'), proxy(106, ['vpn-pool']));
    expect(kinds().sort()).toEqual(['raised egress-exit-shared vm:105', 'raised egress-exit-shared vm:106']);
    expect(events[0]!.alert.reason).toMatch(/reach the internet from one address, 203\.0\.113\.5, though the tag vpn-pool/);
    rules.observeCheck(good(106, '198.51.100.7'), proxy(106, ['vpn-pool']));
    expect(
      kinds()
        .filter((k) => k.startsWith('resolved'))
        .sort(),
    ).toEqual(['resolved egress-exit-shared vm:105', 'resolved egress-exit-shared vm:106']);
  });

  it('leaves proxies outside a marked pool, or in another, alone', () => {
    settings = { distinctExitTags: ['vpn-pool'] };
    const rules = build();
    rules.observeCheck(good(105, '203.0.113.5'), proxy(105, ['vpn-pool']));
    rules.observeCheck(good(106, '203.0.113.5'), proxy(106, ['other']));
    rules.observeCheck(good(107, '203.0.113.5'), proxy(107));
    expect(kinds()).toEqual([]);
  });
});
