/**
 * How the RRD graphs word their numbers and their time axis, as pure functions (the tests check them without
 * drawing). Times are Unix seconds shown in the local time zone; each timeframe labels its ticks at the
 * grain that tells them apart (clock time within a day, weekday for a week, date for a month, month for a year).
 */
import type { RrdTimeframe } from '../../../../shared/channels/rrd';
import { formatBytes } from '../../format';

/** The axis ticks and the readout's time, in the renderer's one time format (format/time.ts). */
export { formatAxisTick as timeTick, formatPointTime as pointTime } from '../../format/time';

/** CPU as a share of all cores: 0.423 -> "42.3%". */
export function formatCpu(share: number): string {
  const pct = share * 100;
  if (pct === 0) return '0%';
  return `${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** A rate in bytes per second: "1.5 MiB/s". */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** How long a timeframe spans, in words, for the charts' accessible names. */
export const timeframeWords: Record<RrdTimeframe, string> = {
  hour: 'the last hour',
  day: 'the last day',
  week: 'the last week',
  month: 'the last month',
  year: 'the last year',
};

/** The latest and the highest value of a series, skipping gaps; undefined when it has none. */
export function latestAndMax(values: readonly (number | null)[]): { latest: number; max: number; mean: number } | undefined {
  let latest: number | undefined;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    latest = v;
    max = Math.max(max, v);
    sum += v;
    n++;
  }
  return latest === undefined ? undefined : { latest, max, mean: sum / n };
}

/**
 * The top of a bytes axis: the smallest power of two (of KiB, MiB, GiB…) at or above `value`, so its half and
 * its top read as round binary sizes ("512 KiB/s", "1 MiB/s") rather than decimal ones ("488 KiB/s").
 */
export function bytesCeil(value: number, floor = 1024): number {
  const v = Math.max(value, floor);
  if (!Number.isFinite(v)) return floor;
  return 2 ** Math.ceil(Math.log2(v) - 1e-9);
}
