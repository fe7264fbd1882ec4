/**
 * Issue 24, "Target unreachable" on its own, over the real history database in memory: a round of targets with a
 * failure raises once for the proxy (how many, the first one and why), a round where all answered resolves it,
 * and the rule switched off says nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertThresholds, type AlertRuleSettings } from '../../../../shared/domain/alert-rules';
import { createLogger } from '../../../../main/log/logger';
import { AlertEngine, type AlertEvent } from '../../../../main/services/alerts/engine';
import { TargetRules } from '../../../../main/services/alerts/target-rules';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { HistoryStore } from '../../../../main/services/history/types';

const clock = 1_700_000_000_000;
let store: HistoryStore;
let events: AlertEvent[];
let settings: AlertRuleSettings;
beforeEach(() => {
  store = openHistoryDatabase({ file: ':memory:', logger: createLogger({ sinks: [] }), now: () => clock });
  events = [];
  settings = {};
});
afterEach(() => store.close());

const build = () =>
  new TargetRules(
    new AlertEngine({ store, now: () => clock, onEvent: (e) => events.push(e) }),
    () => alertThresholds(settings),
    () => 'edge-1',
  );
const round = (failed: { url: string; problem: string }[], fetched = 2) => ({ clusterId: 'c1', vmid: 105, at: clock, fetched, failed });
const down = { url: 'https://shop.example/', problem: 'The proxy works, but it could not reach shop.example:443.' };
const kinds = () => events.map((e) => `${e.kind} ${e.alert.rule} ${e.alert.target}`);

describe('target unreachable', () => {
  it('raises once while a target fails, in words, and resolves when every target answers', () => {
    const rules = build();
    rules.observeTargets(round([down, { url: 'http://10.0.0.9/', problem: 'refused' }], 3));
    rules.observeTargets(round([down]));
    expect(kinds()).toEqual(['raised target-unreachable vm:105']);
    expect(events[0]!.alert).toMatchObject({
      label: 'proxy edge-1 (105)',
      reason:
        '2 of 3 targets could not be reached through proxy edge-1 (105): https://shop.example/ and 1 more. The proxy works, but it could not reach shop.example:443.',
    });
    rules.observeTargets(round([]));
    expect(kinds()).toEqual(['raised target-unreachable vm:105', 'resolved target-unreachable vm:105']);
  });

  it('says nothing with the rule switched off', () => {
    settings = { disabled: ['target-unreachable'] };
    build().observeTargets(round([down]));
    expect(kinds()).toEqual([]);
  });
});
