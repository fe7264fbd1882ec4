import { describe, expect, it } from 'vitest';
import { HealthHistory } from '../../../../main/services/health/history';
import { healthHints } from '../../../../main/services/health/reasons';
import { HealthReason } from '../../../../shared/channels/health';

const point = (atMs: number) => ({ at: new Date(atMs).toISOString(), ready: true, reason: 'Reachable' as const, latencyMs: 5 });

describe('health history', () => {
  it('keeps the last hour of 30 s points and drops older ones, so memory stays flat', () => {
    const hour = 3_600_000;
    const history = new HealthHistory(hour, 1_000);
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let t = 0; t <= 3 * hour; t += 30_000) history.add(point(start + t), start + t);
    const points = history.list();
    expect(points).toHaveLength(121); // the hour, both ends included
    expect(points[0]!.at).toBe(new Date(start + 2 * hour).toISOString());
  });

  it('caps the count even when checks come faster than the cadence', () => {
    const history = new HealthHistory(3_600_000, 50);
    for (let i = 0; i < 500; i++) history.add(point(Date.now()));
    expect(history.list()).toHaveLength(50);
  });

  it('keeps CPU and memory with each point, oldest first, after the ring has wrapped many times', () => {
    const history = new HealthHistory(3_600_000, 120);
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 1_000; i++)
      history.add({ ...point(start + i * 30_000), cpu: i / 1_000, memBytes: i, maxmemBytes: 2_000 }, start + i * 30_000);
    const points = history.list();
    expect(points).toHaveLength(120);
    expect(points[0]).toMatchObject({ cpu: 0.88, memBytes: 880, maxmemBytes: 2_000 });
    expect(points.at(-1)).toMatchObject({ cpu: 0.999, memBytes: 999 });
    expect(points.map((p) => Date.parse(p.at))).toEqual([...points.map((p) => Date.parse(p.at))].sort((a, b) => a - b));
  });

  it('has a fix hint for every reason the core check can give', () => {
    for (const reason of HealthReason.options) expect(healthHints[reason].length).toBeGreaterThan(20);
  });
});
