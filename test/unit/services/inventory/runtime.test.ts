/**
 * Issue 11: when a new guest's agent is asked. Without history, from `bootS`
 * of uptime every `baseMs`; once a watched boot taught the uptime the agent
 * answers at, a new guest is asked a step (a second) before it, then every
 * second. Issue 21: what is learned is when the agent could first answer (a
 * miss a second before bounds it; an answer to the early ask teaches a step
 * earlier), so a boot learned late from slow retries comes back down.
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

    // The next guest, listed 3 s after its start, is asked a step before 50 s of uptime: not at 40, 45 and 50.
    expect(g.observe(2, true, 3, 100_000)).toBe(false);
    expect(g.dueAt(2)).toBe(146_000);
    expect(g.due(2, 145_999)).toBe(false);
    expect(g.due(2, 146_000)).toBe(true);
    // Early: asked again a second later, not five.
    g.recordAddress(2, undefined, 146_000);
    expect(g.dueAt(2)).toBe(147_000);
  });

  it('learns when the agent could first answer, not when its answer was read, so a late-learned boot comes down', () => {
    const g = new GuestRuntime(retry);
    // Taught late: 40, 45 and 50 missed, the answer read at 55 (the agent was up from 50.5 s, unseen).
    g.observe(1, true, 0, 0);
    for (const at of [40_000, 45_000, 50_000]) g.recordAddress(1, undefined, at);
    g.recordAddress(1, '192.168.0.20', 55_000);
    expect(g.expectedBootS()).toBe(55);
    // Guests whose agents answer from 50.5 s: each one asked earlier than the one before, until an ask misses.
    const firstAsks: number[] = [];
    for (let i = 0; i < 8; i++) {
      const vm = 10 + i;
      const start = (i + 1) * 1_000_000;
      g.observe(vm, true, 0, start);
      for (let k = 0; k < 10 && g.address(vm) === undefined; k++) {
        const at = g.dueAt(vm);
        if (k === 0) firstAsks.push((at - start) / 1000);
        g.recordAddress(vm, at - start >= 50_500 ? '192.168.0.40' : undefined, at);
      }
    }
    expect(firstAsks[0]).toBe(54);
    // Settled just before the real boot: the first ask misses by under a second, the next one a second later answers.
    expect(Math.min(...firstAsks)).toBeGreaterThanOrEqual(49);
    expect(firstAsks.at(-1)).toBeLessThanOrEqual(50.5);
    expect(g.expectedBootS()).toBeLessThanOrEqual(51.5);
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
