/**
 * Every time the renderer shows, in one place and one style: local time, 24-hour clock, "2026-12-01 20:23:17"
 * for an instant, "20:23:17" for its clock part, "5 minutes ago" for a relative time (always against a ticking
 * `now`, see clock.ts), and the graphs' axis labels. Views never format a Date themselves (test/dom/common/
 * time-format.test.tsx scans renderer/src for it), so no view can drift into another format.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An ISO instant or epoch milliseconds as a Date, or undefined when it is not a time. */
function dateOf(at: string | number | undefined): Date | undefined {
  if (at === undefined || at === '') return undefined;
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const clockOf = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** An instant (ISO text or epoch ms) as local "2026-01-31 14:05:09", as the Proxmox task list shows start times. */
export function formatDateTime(at: string | number | undefined): string {
  const d = dateOf(at);
  if (!d) return '—';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clockOf(d)}`;
}

/** The clock part of the same format, "14:05:09", for a time of the last hours (a check, a lost connection). */
export function formatClock(at: string | number | undefined): string {
  const d = dateOf(at);
  return d ? clockOf(d) : '—';
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/**
 * An instant as "5 minutes ago" / "in 30 seconds", relative to `now`. `now` is required: it comes from the one
 * ticking clock (useNow), so the words move on while the view stays open instead of freezing at first render.
 */
export function formatRelativeTime(at: string | number | undefined, now: number): string {
  const d = dateOf(at);
  if (!d) return '—';
  let value = (d.getTime() - now) / 1000;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), 'year');
}

/** An axis tick of a graph, local: hours and minutes, "14:05". */
export function formatAxisClock(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An RRD graph's tick at the grain of its timeframe: "14:05" (hour, day), "Mon 14:05" (week), "30 Nov", "Nov 2026". */
export function formatAxisTick(seconds: number, grain: 'hour' | 'day' | 'week' | 'month' | 'year'): string {
  const d = new Date(seconds * 1000);
  const clock = formatAxisClock(seconds);
  if (grain === 'hour' || grain === 'day') return clock;
  if (grain === 'week') return `${weekdays[d.getDay()]} ${clock}`;
  if (grain === 'month') return `${d.getDate()} ${months[d.getMonth()]}`;
  return `${months[d.getMonth()]} ${d.getFullYear()}`;
}

/** A graph point's time in full, local: "Mon 30 Nov 14:05", for the readout. */
export function formatPointTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${weekdays[d.getDay()]} ${d.getDate()} ${months[d.getMonth()]} ${formatAxisClock(seconds)}`;
}
