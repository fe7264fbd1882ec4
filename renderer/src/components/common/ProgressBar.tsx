/** A progress bar screen readers can read; without a value it shows activity of unknown length. */

export interface ProgressBarProps {
  label: string;
  /** 0..100; undefined while the amount of work is unknown. */
  value?: number;
  /** Extra words next to the bar, e.g. the current step. */
  detail?: string;
  tone?: 'ok' | 'warn' | 'bad' | 'info';
}

export function ProgressBar({ label, value, detail, tone = 'info' }: ProgressBarProps) {
  const clamped = value === undefined ? undefined : Math.min(100, Math.max(0, value));
  return (
    <div className="progress">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped === undefined ? undefined : Math.round(clamped)}
        aria-valuetext={detail}
        className={`progress-track tone-${tone}${clamped === undefined ? ' indeterminate' : ''}`}
      >
        <div className="progress-fill" style={{ width: `${clamped ?? 100}%` }} />
      </div>
      {detail && <span className="progress-detail">{detail}</span>}
    </div>
  );
}
