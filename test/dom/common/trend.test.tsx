import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the options as uPlot gets them, functions included
type Opts = any;
const made: { opts: Opts; data: unknown[] }[] = [];
const setData = vi.fn();
const setSize = vi.fn();
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { stepped: () => 'stepped' };
    constructor(opts: Opts, data: unknown[]) {
      made.push({ opts, data });
    }
    setData = setData;
    setSize = setSize;
    destroy = vi.fn();
  }
  return { default: FakePlot };
});

import { Trend } from '../../../renderer/src/components/common';
import { clockLabel, minuteTicks, niceCeil, tickCount, timeWindow, yRange } from '../../../renderer/src/components/common/trend-scales';

const format = (v: number) => `${v} ms`;

beforeAll(() => {
  // jsdom has neither; the chart draws only where both exist.
  globalThis.ResizeObserver = class {
    observe() {}
    disconnect() {}
    unobserve() {}
  } as unknown as typeof ResizeObserver;
  window.matchMedia = (() => ({ matches: false, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
});
afterEach(cleanup);

describe('Trend', () => {
  it('states the latest and the highest value in its accessible name', () => {
    render(
      <Trend label="Latency" times={[1, 2, 3]} series={[{ label: 'ms', values: [10, 40, null], colour: '--accent' }]} format={format} />,
    );
    expect(screen.getByRole('img', { name: 'Latency: latest 40 ms, highest 40 ms' })).toBeTruthy();
  });

  it('says when there is no data yet', () => {
    render(<Trend label="Latency" times={[]} series={[{ label: 'ms', values: [], colour: '--accent' }]} format={format} />);
    expect(screen.getByRole('img', { name: 'Latency: no data yet' })).toBeTruthy();
  });

  it('draws with uPlot, then feeds new points without rebuilding the chart', async () => {
    const series = (values: number[]) => [{ label: 'ms', values, colour: '--accent' }];
    const { rerender } = render(<Trend label="Latency" times={[1, 2]} series={series([5, 6])} format={format} />);
    await waitFor(() => expect(made).toHaveLength(1));
    expect(made[0]!.data).toEqual([
      [1, 2],
      [5, 6],
    ]);
    rerender(<Trend label="Latency" times={[1, 2, 3]} series={series([5, 6, 7])} format={format} />);
    expect(made).toHaveLength(1);
    expect(setData).toHaveBeenLastCalledWith([
      [1, 2, 3],
      [5, 6, 7],
    ]);
  });

  // uPlot's x values are Unix seconds: with one point it used to pad the range by the value's magnitude (years).
  const scaleOf = (opts: Opts, key: 'x' | 'y') => opts.scales[key].range() as [number, number];
  const xLabels = (opts: Opts, [min, max]: [number, number]) => {
    const ticks = opts.axes[0].splits({ scales: { x: { min, max } } }) as number[];
    return { ticks, labels: opts.axes[0].values({}, ticks) as string[] };
  };

  it('shows one point on a one-hour axis in minutes, not years, and a y range above zero', async () => {
    made.length = 0;
    const at = Date.parse('2026-03-01T10:07:00Z') / 1000;
    render(
      <Trend
        label="Latency"
        times={[at]}
        series={[{ label: 'ms', values: [0], colour: '--accent' }]}
        format={format}
        now={at * 1000}
        yScale={{ floor: 10 }}
      />,
    );
    await waitFor(() => expect(made).toHaveLength(1));
    const opts = made[0]!.opts;
    const x = scaleOf(opts, 'x');
    expect(x).toEqual([at - 3600, at]);
    const { ticks, labels } = xLabels(opts, x);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(6);
    for (const t of ticks) expect(t % 60).toBe(0);
    for (const l of labels) expect(l).toMatch(/^\d\d:\d\d$/);
    expect(labels).toContain(clockLabel(at - (at % 900)));
    const y = scaleOf(opts, 'y');
    expect(y[0]).toBe(0);
    expect(y[1]).toBe(10);
    const yLabels = opts.axes[1].values({}, opts.axes[1].splits({ scales: { y: { min: y[0], max: y[1] } } })) as string[];
    expect(yLabels).toEqual(['0 ms', '5 ms', '10 ms']);
  });

  it('spans a one-hour series exactly, ending now, with minute ticks; a share stays on 0..100%', async () => {
    made.length = 0;
    const end = Date.parse('2026-03-01T10:30:00Z') / 1000;
    const times = Array.from({ length: 121 }, (_, i) => end - 3600 + i * 30);
    const values = times.map((_, i) => (i % 10) / 100);
    render(
      <Trend
        compact
        label="CPU"
        times={times}
        series={[{ label: 'cpu', values, colour: '--accent' }]}
        format={(v) => `${Math.round(v * 100)}%`}
        now={end * 1000 - 5_000}
        yScale={{ fixed: [0, 1] }}
      />,
    );
    await waitFor(() => expect(made).toHaveLength(1));
    const opts = made[0]!.opts;
    expect(scaleOf(opts, 'x')).toEqual([end - 3600, end]);
    const { ticks, labels } = xLabels(opts, [end - 3600, end]);
    expect(ticks).toEqual([0, 1, 2, 3, 4].map((i) => end - 3600 + i * 900)); // 09:30, 09:45 … 10:30
    expect(labels.every((l) => /^\d\d:\d\d$/.test(l))).toBe(true);
    expect(scaleOf(opts, 'y')).toEqual([0, 1]);
  });

  it('keeps the window moving with the clock, without rebuilding the chart', async () => {
    made.length = 0;
    const t0 = Date.parse('2026-03-01T10:00:00Z');
    const props = { label: 'L', times: [t0 / 1000], series: [{ label: 'ms', values: [3], colour: '--accent' }], format };
    const { rerender } = render(<Trend {...props} now={t0} />);
    await waitFor(() => expect(made).toHaveLength(1));
    rerender(<Trend {...props} now={t0 + 600_000} />);
    expect(made).toHaveLength(1);
    expect(scaleOf(made[0]!.opts, 'x')).toEqual([t0 / 1000 + 600 - 3600, t0 / 1000 + 600]);
  });
});

describe('trend scales', () => {
  it('never gives an empty or negative y range', () => {
    expect(yRange([], { floor: 1 })).toEqual([0, 1]);
    expect(yRange([0, 0, null], { floor: 10 })).toEqual([0, 10]);
    expect(yRange([42], { floor: 10 })).toEqual([0, 50]);
    expect(yRange([1234], { floor: 10 })).toEqual([0, 2000]);
    expect(yRange([0.03], { floor: 0.1, cap: 1 })).toEqual([0, 0.1]);
    expect(yRange([0.97], { floor: 0.1, cap: 1 })).toEqual([0, 1]);
    expect([0.7, 1, 2, 2.4, 3, 7, 11].map(niceCeil)).toEqual([1, 1, 2, 2.5, 5, 10, 20]);
  });

  it('puts the window at now, or at a point checked a moment after now', () => {
    expect(timeWindow([], 5000)).toEqual([1400, 5000]);
    expect(timeWindow([100, 5010], 5000)).toEqual([1410, 5010]);
  });

  it('ticks on whole minutes, only as many as fit the width', () => {
    expect(tickCount(100, 4)).toBe(2);
    expect(tickCount(400, 4)).toBe(4);
    expect(tickCount(undefined, 4)).toBe(4);
    const ticks = minuteTicks([1_000_000, 1_003_600], 4);
    expect(ticks.every((t) => t % 900 === 0)).toBe(true);
    expect(ticks.length).toBe(4);
  });
});
