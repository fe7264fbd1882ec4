/**
 * One RRD graph (uPlot): local time on the x axis labelled at the timeframe's grain, the measure's unit on
 * the y axis, and a hover readout (uPlot's legend, each value formatted with its unit) that follows the
 * cursor, or the arrow keys once the plot has focus (said in a live region too). The plot's accessible name
 * states the latest and highest value of each line; the data summary (RrdGraphs) gives them as a table.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { RrdTimeframe } from '../../../../shared/channels/rrd';
import { useChartColours, type ChartColours } from './chart-theme';
import { latestAndMax, pointTime, timeframeWords, timeTick } from './rrd-format';
import { yRange, yTicks, type YScale } from './trend-scales';

export interface RrdLine {
  label: string;
  values: (number | null)[];
  /** A CSS variable such as `--accent`. */
  colour: string;
  /** A limit rather than a measure (the memory size): dashed. */
  dashed?: boolean;
}

export interface RrdChartProps {
  title: string;
  times: number[];
  lines: RrdLine[];
  format: (value: number) => string;
  timeframe: RrdTimeframe;
  yScale: YScale;
  height?: number;
}

/** "CPU over the last hour: latest 4.1%, highest 12%." One sentence per line. */
export function describeChart({
  title,
  lines,
  format,
  timeframe,
}: Pick<RrdChartProps, 'title' | 'lines' | 'format' | 'timeframe'>): string {
  const parts = lines.map((l) => {
    const s = latestAndMax(l.values);
    return s ? `${l.label} latest ${format(s.latest)}, highest ${format(s.max)}` : `${l.label} no data`;
  });
  return `${title} over ${timeframeWords[timeframe]}: ${parts.join('; ')}.`;
}

/** uPlot is loaded once, when the first graph draws, and shared by every graph after it. */
const importUplot = () => import('uplot');
let uplotModule: ReturnType<typeof importUplot> | undefined;
const loadUplot = () => (uplotModule ??= importUplot());

/** One point in words, for the keyboard readout: "Mon 30 Nov 14:05: Used 420 MiB, Size 1 GiB". */
export function readoutAt(index: number, times: readonly number[], lines: readonly RrdLine[], format: (v: number) => string): string {
  const values = lines.map((l) => {
    const v = l.values[index];
    return `${l.label} ${v === null || v === undefined ? 'no data' : format(v)}`;
  });
  return `${pointTime(times[index]!)}: ${values.join(', ')}`;
}

/** The point a key moves the keyboard readout to, from `index` (none yet: the newest). */
export function stepPoint(key: string, index: number | undefined, count: number): number | undefined {
  if (count === 0) return undefined;
  const from = index ?? count - 1;
  if (key === 'ArrowLeft') return Math.max(0, index === undefined ? from : from - 1);
  if (key === 'ArrowRight') return Math.min(count - 1, index === undefined ? from : from + 1);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

function canDraw(): boolean {
  // jsdom has neither; the text alternative and the data summary still stand.
  return typeof ResizeObserver !== 'undefined' && typeof window.matchMedia === 'function';
}

/** The uPlot options of one graph; exported for the tests, which check the axes' labels and the readout's words. */
export function rrdChartOptions(
  props: Pick<RrdChartProps, 'lines' | 'format' | 'timeframe' | 'yScale'> & { width: number; height: number },
  colours: ChartColours,
): uPlot.Options {
  const axis = {
    stroke: colours.text,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1, size: 4 },
    font: '11px system-ui, sans-serif',
  };
  const values = props.lines.flatMap((l) => l.values);
  return {
    width: props.width,
    height: props.height,
    padding: [8, 12, 0, 0],
    // The readout: the hovered point's time and each line's value in its unit.
    legend: { show: true, live: true },
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    scales: {
      x: { time: true },
      y: { range: () => yRange(values, props.yScale) },
    },
    axes: [
      {
        ...axis,
        size: 28,
        space: props.timeframe === 'week' ? 80 : 60,
        values: (u, ticks) => {
          const labels = ticks.map((t) => timeTick(t, props.timeframe));
          // The axis is drawn on the canvas; its labels are also left on the plot for tests and tools to read.
          u.root.parentElement?.setAttribute('data-x-ticks', labels.join(' | '));
          return labels;
        },
      },
      {
        ...axis,
        size: 72,
        splits: (u) => yTicks([u.scales.y!.min!, u.scales.y!.max!]),
        values: (_u, ticks) => ticks.map((t) => props.format(t)),
      },
    ],
    series: [
      { label: 'Time', value: (_u, v) => (v === null || v === undefined ? '—' : pointTime(v)) },
      ...props.lines.map((l) => ({
        label: l.label,
        stroke: colours.read(l.colour),
        width: 1.5,
        dash: l.dashed ? [6, 4] : undefined,
        points: { show: false },
        spanGaps: false,
        value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : props.format(v)),
      })),
    ],
  };
}

export function RrdChart({ title, times, lines, format, timeframe, yScale, height = 150 }: RrdChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const colours = useChartColours();
  const latest = useRef({ lines, format, timeframe, yScale, times });
  latest.current = { lines, format, timeframe, yScale, times };
  const plotRef = useRef<uPlot | null>(null);
  const point = useRef<number | undefined>(undefined);
  const [readout, setReadout] = useState('');

  useEffect(() => {
    const target = box.current;
    if (!target || !canDraw()) return;
    let disposed = false;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    void loadUplot().then(({ default: UPlot }) => {
      if (disposed) return;
      const p = latest.current;
      const width = () => Math.max(160, target.clientWidth);
      plot = new UPlot(
        rrdChartOptions({ ...p, width: width(), height }, colours),
        [p.times, ...p.lines.map((l) => l.values)] as uPlot.AlignedData,
        target,
      );
      plotRef.current = plot;
      observer = new ResizeObserver(() => plot?.setSize({ width: width(), height }));
      observer.observe(target);
    });
    point.current = undefined;
    setReadout('');
    return () => {
      disposed = true;
      observer?.disconnect();
      plot?.destroy();
      plotRef.current = null;
    };
    // A new answer (another timeframe, a fresh read) draws a new chart: the axes' grain changes with it.
  }, [times, lines, colours, height]);

  // The keyboard's readout: arrows, Home and End move uPlot's cursor point by point (its legend shows the values)
  // and a live region says them.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = stepPoint(e.key, point.current, times.length);
    if (next === undefined) return;
    e.preventDefault();
    point.current = next;
    const plot = plotRef.current;
    if (plot) plot.setCursor({ left: plot.valToPos(times[next]!, 'x'), top: plot.bbox.height / (2 * (globalThis.devicePixelRatio || 1)) });
    setReadout(readoutAt(next, times, lines, format));
  };

  return (
    <figure className="rrd-chart">
      <figcaption>{title}</figcaption>
      <div
        ref={box}
        role="img"
        tabIndex={0}
        aria-label={`${describeChart({ title, lines, format, timeframe })} Arrow keys read each point.`}
        className="rrd-plot"
        onKeyDown={onKeyDown}
      />
      <p className="sr-only" aria-live="polite">
        {readout}
      </p>
    </figure>
  );
}
