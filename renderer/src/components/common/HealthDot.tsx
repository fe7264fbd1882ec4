/**
 * Health as a colour and a word. The colour scale is shared by cards,
 * tables and gauges so "red" means the same thing everywhere.
 */
import type { Tone } from './StateBadge';

export type HealthLevel = 'ok' | 'warn' | 'bad' | 'unknown';

export const healthTone: Record<HealthLevel, Tone> = { ok: 'ok', warn: 'warn', bad: 'bad', unknown: 'neutral' };

/** Usage of a resource (0..1) on the scale: calm below 75 %, warning below 90 %, alarming above. */
export function usageLevel(fraction: number | undefined): HealthLevel {
  if (fraction === undefined || !Number.isFinite(fraction)) return 'unknown';
  if (fraction < 0.75) return 'ok';
  if (fraction < 0.9) return 'warn';
  return 'bad';
}

/** A dot that carries its meaning in its accessible name, never in colour alone. */
export function HealthDot({ level, label }: { level: HealthLevel; label: string }) {
  return <span role="img" aria-label={label} title={label} className={`health-dot health-${level}`} />;
}
