/** A state word in a coloured pill; the colour follows the word's tone, the word itself is always written. */

export type Tone = 'ok' | 'info' | 'neutral' | 'warn' | 'bad';

const toneOfState: Record<string, Tone> = {
  running: 'ok',
  ready: 'ok',
  online: 'ok',
  ok: 'ok',
  succeeded: 'ok',
  suitable: 'ok',
  provisioning: 'info',
  pending: 'info',
  queued: 'info',
  starting: 'info',
  stopped: 'neutral',
  cancelled: 'neutral',
  skipped: 'neutral',
  locked: 'warn',
  interrupted: 'warn',
  degraded: 'warn',
  warn: 'warn',
  foreign: 'warn',
  unknown: 'bad',
  offline: 'bad',
  failed: 'bad',
  fail: 'bad',
  unsuitable: 'bad',
};

export function toneOf(state: string): Tone {
  return toneOfState[state.toLowerCase()] ?? 'neutral';
}

export function StateBadge({ state, label, tone }: { state: string; label?: string; tone?: Tone }) {
  return <span className={`state-badge tone-${tone ?? toneOf(state)}`}>{label ?? state}</span>;
}
