/**
 * A small time-series chart (uPlot) that fills its container's width and
 * follows the theme. The figure's accessible name states the latest and
 * the highest value, so the chart is never the only way to read the data.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useChartColours } from './chart-theme';

export interface TrendSeries {
  label: string;
  /** One value per time; null leaves a gap. */
  values: (number | null)[];
  /** A CSS variable such as `--accent`. */
  colour: string;
  /** Drawn as steps, for on/off values. */
  stepped?: boolean;
}

export interface TrendProps {
  label: string;
  /** Unix seconds, ascending. */
  times: number[];
  series: TrendSeries[];
  height?: number;
  format: (value: number) => string;
}

export function summarise({ label, series, format }: Pick<TrendProps, 'label' | 'series' | 'format'>): string {
  const values = (series[0]?.values ?? []).filter((v): v is number => v !== null);
  if (values.length === 0) return `${label}: no data yet`;
  return `${label}: latest ${format(values[values.length - 1]!)}, highest ${format(Math.max(...values))}`;
}

function canDraw(): boolean {
  // jsdom and very old engines have neither; the text summary still stands.
  return typeof ResizeObserver !== 'undefined' && typeof window.matchMedia === 'function';
}

export function Trend({ label, times, series, height = 90, format }: TrendProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const colours = useChartColours();
  const data = [times, ...series.map((s) => s.values)] as uPlot.AlignedData;
  const latestData = useRef(data);
  latestData.current = data;
  const shape = series.map((s) => `${s.label}:${s.colour}:${s.stepped ? 1 : 0}`).join('|');

  useEffect(() => {
    const target = box.current;
    if (!target || !canDraw()) return;
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('uplot').then(({ default: UPlot }) => {
      if (disposed) return;
      const axis = { stroke: colours.text, grid: { stroke: colours.grid, width: 1 }, ticks: { stroke: colours.grid, width: 1 }, size: 36 };
      plot.current = new UPlot(
        {
          width: Math.max(120, target.clientWidth),
          height,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: true } },
          axes: [axis, { ...axis, values: (_u, ticks) => ticks.map((t) => format(t)), size: 56 }],
          series: [
            {},
            ...series.map((s) => ({
              label: s.label,
              stroke: colours.read(s.colour),
              width: 2,
              paths: s.stepped ? UPlot.paths.stepped?.({ align: 1 }) : undefined,
            })),
          ],
        },
        latestData.current,
        target,
      );
      observer = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(120, target.clientWidth), height }));
      observer.observe(target);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // The chart is rebuilt only when its shape or palette changes; new points go through setData below.
  }, [shape, colours, height]);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return <div ref={box} role="img" aria-label={summarise({ label, series, format })} className="trend" />;
}
