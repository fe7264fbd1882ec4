/**
 * Alerts you can tune (issue 23), over the real engine and the history
 * database in memory with a hand-moved clock: a rule's hold-down ("only after
 * N minutes"), a target snoozed until a time (nothing raised meanwhile, the
 * alert raised at the expiry if the condition still holds), a target muted
 * until unmuted, and a per-proxy override over the rule's setting.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertTuning } from '../../../../shared/channels/alerts';
import { createLogger } from '../../../../main/log/logger';
import { AlertEngine, type AlertEvent } from '../../../../main/services/alerts/engine';
import { tuningFor } from '../../../../main/services/alerts/tuning';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { HistoryDatabase } from '../../../../main/services/history/types';

const MIN = 60_000;
let clock = 1_700_000_000_000;
let store: HistoryDatabase;
let events: AlertEvent[];
let tuning: AlertTuning;

const empty = (): AlertTuning => ({ holdDownMinutes: {}, overrides: [], snoozes: [] });
const subject = { rule: 'egress-failing' as const, clusterId: 'c1', target: 'vm:105', label: 'proxy egress-a (105)' };
const condition = { reason: 'The egress check failed 2 times in a row.', hint: 'Check the proxy.' };
const raised = () => events.filter((e) => e.kind === 'raised').map((e) => e.alert.target);

function engine() {
  return new AlertEngine({ store, now: () => clock, onEvent: (e) => events.push(e), tuning: (s) => tuningFor(tuning, s, clock) });
}

beforeEach(() => {
  clock = 1_700_000_000_000;
  events = [];
  tuning = empty();
  store = openHistoryDatabase({ file: ':memory:', logger: createLogger({ sinks: [] }), now: () => clock });
});
afterEach(() => store.close());

describe('the tuning rules (pure)', () => {
  it('an override of the target wins over the rule, the rule over none', () => {
    tuning.holdDownMinutes = { 'egress-failing': 10 };
    expect(tuningFor(tuning, subject, clock).holdMs).toBe(10 * MIN);
    tuning.overrides = [{ clusterId: 'c1', target: 'vm:105', label: subject.label, holdDownMinutes: 2 }];
    expect(tuningFor(tuning, subject, clock).holdMs).toBe(2 * MIN);
    // Another proxy keeps the rule's hold-down; the override holds for every rule of its proxy; a rule without one has none.
    expect(tuningFor(tuning, { ...subject, target: 'vm:106' }, clock).holdMs).toBe(10 * MIN);
    expect(tuningFor(tuning, { ...subject, rule: 'proxy-not-running' }, clock).holdMs).toBe(2 * MIN);
    expect(tuningFor(tuning, { ...subject, target: 'vm:106', rule: 'proxy-not-running' }, clock).holdMs).toBe(0);
    // Switched off for this proxy only.
    tuning.overrides = [{ clusterId: 'c1', target: 'vm:105', label: subject.label, disabled: ['egress-failing'] }];
    expect(tuningFor(tuning, subject, clock).off).toBe(true);
    expect(tuningFor(tuning, { ...subject, clusterId: 'c2' }, clock).off).toBe(false);
    expect(tuningFor(tuning, { ...subject, rule: 'proxy-not-running' }, clock).off).toBe(false);
  });

  it('a snooze holds until its time, a mute until it is removed', () => {
    tuning.snoozes = [{ clusterId: 'c1', target: 'vm:105', label: subject.label, until: new Date(clock + 60 * MIN).toISOString() }];
    expect(tuningFor(tuning, subject, clock).quietUntil).toBe(clock + 60 * MIN);
    expect(tuningFor(tuning, subject, clock + 60 * MIN).quietUntil).toBeUndefined();
    tuning.snoozes = [{ clusterId: 'c1', target: 'vm:105', label: subject.label }];
    expect(tuningFor(tuning, subject, clock + 1000 * MIN).quietUntil).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the engine under tuning', () => {
  it("holds a raise down for the rule's N minutes while the condition holds, and forgets it when it clears", () => {
    tuning.holdDownMinutes = { 'egress-failing': 5 };
    const e = engine();
    e.active(subject, condition);
    clock += 4 * MIN;
    e.tick();
    expect(raised()).toEqual([]);
    e.clear(subject.rule, subject.clusterId, subject.target); // a good check between: the hold-down starts again
    e.active(subject, condition);
    clock += 4 * MIN;
    e.tick();
    expect(raised()).toEqual([]);
    clock += 1 * MIN;
    e.tick();
    expect(raised()).toEqual(['vm:105']);
  });

  it('a snoozed target raises nothing until the snooze ends, then raises what still holds', () => {
    tuning.snoozes = [{ clusterId: 'c1', target: 'vm:105', label: subject.label, until: new Date(clock + 30 * MIN).toISOString() }];
    const e = engine();
    e.active(subject, condition);
    e.active({ ...subject, target: 'vm:106', label: 'proxy egress-b (106)' }, condition);
    expect(raised()).toEqual(['vm:106']);
    clock += 29 * MIN;
    e.active(subject, condition);
    e.tick();
    expect(raised()).toEqual(['vm:106']);
    clock += 1 * MIN;
    e.tick();
    expect(raised()).toEqual(['vm:106', 'vm:105']);
  });

  it('a muted target stays quiet at any time; unmuted, the next look raises it', () => {
    tuning.snoozes = [{ clusterId: 'c1', target: 'vm:105', label: subject.label }];
    const e = engine();
    e.active(subject, condition);
    clock += 7 * 24 * 60 * MIN;
    e.tick();
    expect(raised()).toEqual([]);
    tuning.snoozes = [];
    e.tick();
    expect(raised()).toEqual(['vm:105']);
  });

  it('an override that switches the rule off for one proxy resolves its open alert and raises nothing more', () => {
    const e = engine();
    e.active(subject, condition);
    expect(raised()).toEqual(['vm:105']);
    tuning.overrides = [{ clusterId: 'c1', target: 'vm:105', label: subject.label, disabled: ['egress-failing'] }];
    e.active(subject, condition);
    expect(events.map((x) => x.kind)).toEqual(['raised', 'resolved']);
    e.active(subject, condition);
    clock += 60 * MIN;
    e.tick();
    expect(events.map((x) => x.kind)).toEqual(['raised', 'resolved']);
  });
});
