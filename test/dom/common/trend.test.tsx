import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const made: { opts: { width: number; series: unknown[] }; data: unknown[] }[] = [];
const setData = vi.fn();
const setSize = vi.fn();
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { stepped: () => 'stepped' };
    constructor(opts: { width: number; series: unknown[] }, data: unknown[]) {
      made.push({ opts, data });
    }
    setData = setData;
    setSize = setSize;
    destroy = vi.fn();
  }
  return { default: FakePlot };
});

import { Trend } from '../../../renderer/src/components/common';

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
});
