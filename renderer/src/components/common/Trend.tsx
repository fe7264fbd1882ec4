/**
 * A small time-series chart (uPlot) that fills its container's width and
 * follows the theme. The x axis is the last hour up to now, on whole
 * minutes of the clock, whatever the number of points (uPlot's x values are
 * Unix seconds); the y axis starts at zero with head-room, in the series'
 * own unit. The figure's accessible name states the latest and the highest
 * value, so the chart is never the only way to read the data.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useChartColours } from './chart-theme';
import { clockLabel, HOUR_S, minuteTicks, tickCount, timeWindow, yRange, yTicks, type YScale } from './trend-scales';

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
  /** The end of the window shown, in milliseconds; default the last point (or the current time). */
  now?: number;
  /** How long a window, in seconds; default an hour. */
  spanSeconds?: number;
  /** The y scale: `{ fixed: [0, 1] }` for a share, `{ floor }` for a measure (the top is at least `floor`); default `{ floor: 1 }`. */
  yScale?: YScale;
  /** A sparkline: small axis labels, fewer ticks, tight padding. */
  compact?: boolean;
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

/** The uPlot options of a trend; exported for the tests, which check the scales and the axis labels. */
export function trendOptions(
  props: Pick<TrendProps, 'series' | 'format' | 'compact'> & { height: number; width: number },
  colours: { text: string; grid: string; read(variable: string): string },
  xWindow: () => [number, number],
  yValues: () => (number | null)[],
  yScale: () => YScale,
  paths?: { stepped?: (opts: { align: 1 }) => uPlot.Series.PathBuilder },
): uPlot.Options {
  const { compact = false } = props;
  const font = `${compact ? 10 : 11}px system-ui, sans-serif`;
  const axis = {
    stroke: colours.text,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1, size: compact ? 3 : 5 },
    font,
    gap: compact ? 2 : 4,
  };
  return {
    width: props.width,
    height: props.height,
    legend: { show: false },
    cursor: { show: false },
    padding: compact ? [6, 8, 0, 0] : [8, 12, 0, 0],
    scales: {
      // Seconds, but not uPlot's own time scale: the ticks and labels below are whole minutes of the clock.
      x: { time: false, range: () => xWindow() },
      y: { range: () => yRange(yValues(), yScale()) },
    },
    axes: [
      {
        ...axis,
        size: compact ? 16 : 24,
        // As many labels as fit: bbox is in device pixels.
        splits: (u) =>
          minuteTicks(
            [u.scales.x!.min!, u.scales.x!.max!],
            tickCount(u.bbox ? u.bbox.width / (globalThis.devicePixelRatio || 1) : undefined, compact ? 4 : 6),
          ),
        values: (_u, ticks) => ticks.map(clockLabel),
      },
      {
        ...axis,
        size: compact ? 46 : 56,
        splits: (u) => yTicks([u.scales.y!.min!, u.scales.y!.max!]),
        values: (_u, ticks) => ticks.map((t) => props.format(t)),
      },
    ],
    series: [
      {},
      ...props.series.map((s) => ({
        label: s.label,
        stroke: colours.read(s.colour),
        width: compact ? 1.5 : 2,
        points: { size: 4 },
        paths: s.stepped ? paths?.stepped?.({ align: 1 }) : undefined,
      })),
    ],
  };
}

export function Trend({
  label,
  times,
  series,
  height = 90,
  format,
  now,
  spanSeconds = HOUR_S,
  yScale = { floor: 1 },
  compact,
}: TrendProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const colours = useChartColours();
  const data = [times, ...series.map((s) => s.values)] as uPlot.AlignedData;
  const latest = useRef({ data, window: timeWindow(times, (now ?? Date.now()) / 1000, spanSeconds), series, format, yScale });
  latest.current = { data, window: timeWindow(times, (now ?? Date.now()) / 1000, spanSeconds), series, format, yScale };
  const shape = series.map((s) => `${s.label}:${s.colour}:${s.stepped ? 1 : 0}`).join('|');

  useEffect(() => {
    const target = box.current;
    if (!target || !canDraw()) return;
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('uplot').then(({ default: UPlot }) => {
      if (disposed) return;
      const current = () => latest.current;
      plot.current = new UPlot(
        trendOptions(
          { series: current().series, format: (v) => current().format(v), compact, height, width: Math.max(120, target.clientWidth) },
          colours,
          () => current().window,
          () => current().series.flatMap((s) => s.values),
          () => current().yScale,
          UPlot.paths,
        ),
        current().data,
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
    // The chart is rebuilt only when its shape or palette changes; new points (and the moving window) go through setData below.
  }, [shape, colours, height, compact]);

  useEffect(() => {
    plot.current?.setData(data);
  });

  return (
    <div ref={box} role="img" aria-label={summarise({ label, series, format })} className={compact ? 'trend trend-compact' : 'trend'} />
  );
}
