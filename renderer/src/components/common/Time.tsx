/**
 * A time as a view shows it: the renderer's one format (format/time.ts), in a <time> element whose tooltip is the
 * full local instant. RelativeTime reads the ticking clock, so its words move on while the view is open.
 */
import { formatDateTime, formatRelativeTime } from '../../format';
import { useNow } from '../../format/clock';

function instant(at: string | number | undefined): number | undefined {
  const ms = typeof at === 'string' ? Date.parse(at) : at;
  return ms === undefined || Number.isNaN(ms) ? undefined : ms;
}

/** "5 minutes ago", ticking; the full local time on hover. */
export function RelativeTime({ at }: { at: string | number | undefined }) {
  const now = useNow();
  const ms = instant(at);
  if (ms === undefined) return <>—</>;
  // A stamp a moment ahead of this window's clock (main's clock, the whole-second tick) reads "now", not "in 1 second".
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatDateTime(ms)}>
      {formatRelativeTime(ms, Math.max(now, ms))}
    </time>
  );
}

/** "2026-12-01 20:23:17", local. */
export function DateTime({ at }: { at: string | number | undefined }) {
  const ms = instant(at);
  if (ms === undefined) return <>—</>;
  return <time dateTime={new Date(ms).toISOString()}>{formatDateTime(ms)}</time>;
}
