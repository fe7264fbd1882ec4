/**
 * The last hour of a node's checks as a strip of coloured segments, one per
 * stretch of the same reason, so a flapping node is visible at a glance.
 * The list under it says the same in words for screen readers.
 */
import type { HealthPoint } from '../../../../shared/channels/health';
import { HISTORY_MS } from '../../stores/health';
import { formatRelativeTime } from '../../format';
import { reasonWords } from './reason-words';

interface Stretch {
  from: number;
  to: number;
  point: HealthPoint;
}

function stretches(points: HealthPoint[], now: number): Stretch[] {
  const out: Stretch[] = [];
  for (const p of points) {
    const at = Date.parse(p.at);
    const last = out[out.length - 1];
    if (last && last.point.reason === p.reason) continue;
    if (last) last.to = at;
    out.push({ from: at, to: now, point: p });
  }
  return out;
}

export function ReasonStrip({ node, points, now }: { node: string; points: HealthPoint[]; now: number }) {
  const start = now - HISTORY_MS;
  const parts = stretches(points, now);
  const changes = parts.length - 1;
  return (
    <figure className="reason-strip">
      <figcaption className="sr-only">Reason changes, last hour: {changes <= 0 ? 'none' : changes}</figcaption>
      <div className="strip" aria-hidden="true">
        {parts.map((s) => {
          const from = Math.max(s.from, start);
          const width = ((s.to - from) / HISTORY_MS) * 100;
          const left = ((from - start) / HISTORY_MS) * 100;
          return (
            <span
              key={s.from}
              className={`strip-part ${s.point.ready ? 'health-ok' : 'health-bad'}`}
              title={`${reasonWords[s.point.reason]} since ${formatRelativeTime(s.point.at, now)}`}
              style={{ left: `${left}%`, width: `${Math.max(width, 0.5)}%` }}
            />
          );
        })}
      </div>
      {changes > 0 && (
        <ul className="sr-only" aria-label={`Reason changes of ${node}`}>
          {parts.map((s) => (
            <li key={s.from}>
              {reasonWords[s.point.reason]} from {formatRelativeTime(s.point.at, now)}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
