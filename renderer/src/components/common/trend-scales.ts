/**
 * The scales of the trend charts, as pure functions so they can be tested
 * without drawing. uPlot's x values are Unix SECONDS; a series with one
 * point (or all points equal) must still get a real span, or uPlot pads it
 * by the value's magnitude (years, for a timestamp; nothing, for zeros).
 */

/** The last hour, in seconds. */
export const HOUR_S = 3600;

/** The x range a trend shows: the hour up to `now` (seconds), or up to the last point if that is later. */
export function timeWindow(times: readonly number[], nowS: number, spanS = HOUR_S): [number, number] {
  const last = times.length > 0 ? times[times.length - 1]! : nowS;
  const to = Math.max(nowS, Number.isFinite(last) ? last : nowS);
  return [to - spanS, to];
}

/** Tick steps in seconds: whole minutes only. */
const minuteSteps = [60, 120, 300, 600, 900, 1200, 1800, 3600];

/** How many time labels fit across a plot this many CSS pixels wide. */
export function tickCount(plotWidthPx: number | undefined, fallback: number): number {
  return plotWidthPx && plotWidthPx > 0 ? Math.max(2, Math.min(fallback, Math.floor(plotWidthPx / 48))) : fallback;
}

/** Ticks on whole minutes of the clock, about `count` of them across the window. */
export function minuteTicks([from, to]: [number, number], count = 4): number[] {
  const span = Math.max(60, to - from);
  const step = minuteSteps.find((s) => span / s <= count) ?? minuteSteps[minuteSteps.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

/** A tick as the local clock's hours and minutes, "14:05" (format/time.ts). */
export { formatAxisClock as clockLabel } from '../../format/time';

/** 1, 2, 2.5, 5 × 10^n: the smallest such number at or above `value`. */
export function niceCeil(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * magnitude >= value * (1 - 1e-9)) return m * magnitude;
  return 10 * magnitude;
}

/** How a series' y axis is scaled: a fixed range (a share, 0..1), or from 0 to a nice top at least `floor`. */
export type YScale = { fixed: [number, number] } | { floor: number; cap?: number };

/** The y range: never empty, never below zero for these measures, with head-room over the highest value. */
export function yRange(values: readonly (number | null | undefined)[], scale: YScale): [number, number] {
  if ('fixed' in scale) return scale.fixed;
  let max = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v) && v > max) max = v;
  const top = niceCeil(Math.max(scale.floor, max * 1.1));
  return [0, scale.cap === undefined ? top : Math.min(scale.cap, top)];
}

/** Ticks for the y axis: the bottom, the middle and the top, so a small chart has three labels at most. */
export function yTicks([min, max]: [number, number]): number[] {
  return [min, (min + max) / 2, max];
}
