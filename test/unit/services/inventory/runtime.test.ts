/**
 * Issue 11: when a new guest's agent is asked. Without history, from `bootS`
 * of uptime every `baseMs`; once a watched boot taught the uptime the agent
 * answers at, a new guest is asked right then, and a second later if early.
 */
import { describe, expect, it } from 'vitest';
import { GuestRuntime } from '../../../../main/services/inventory/runtime';

const retry = { baseMs: 5_000, maxMs: 60_000, bootS: 40, nearBootMs: 1_000 };

describe('guest runtime: when to ask the agent', () => {
  it('asks a booting guest from bootS on, then learns the uptime its agent answered at', () => {
    const g = new GuestRuntime(retry);
    expect(g.observe(1, true, 0, 0)).toBe(false);
    expect(g.dueAt(1)).toBe(40_000);
    g.recordAddress(1, undefined, 40_000);
    expect(g.dueAt(1)).toBe(45_000);
    g.recordAddress(1, undefined, 45_000);
    g.recordAddress(1, '192.168.0.20', 50_000);
    expect(g.dueAt(1)).toBe(Number.POSITIVE_INFINITY);
    expect(g.expectedBootS()).toBe(50);

    // The next guest, listed 3 s after its start, is asked once at 50 s of uptime: not at 40, 45 and 50.
    expect(g.observe(2, true, 3, 100_000)).toBe(false);
    expect(g.dueAt(2)).toBe(147_000);
    expect(g.due(2, 146_999)).toBe(false);
    expect(g.due(2, 147_000)).toBe(true);
    // Early after all: asked again a second later, not five.
    g.recordAddress(2, undefined, 147_000);
    expect(g.dueAt(2)).toBe(148_000);
  });

  it('learns nothing from a guest it did not watch boot (listed long after its start)', () => {
    const g = new GuestRuntime(retry);
    expect(g.observe(1, true, 3_600, 0)).toBe(true);
    g.recordAddress(1, '192.168.0.21', 0);
    expect(g.expectedBootS()).toBe(40);
  });

  it('takes the median of the boots it watched, so one slow guest does not delay the others', () => {
    const g = new GuestRuntime(retry);
    const boots = [50, 51, 90];
    boots.forEach((boot, i) => {
      const at = i * 1_000_000;
      g.observe(i, true, 0, at);
      g.recordAddress(i, '192.168.0.30', at + boot * 1000);
    });
    expect(g.expectedBootS()).toBe(51);
  });
});
