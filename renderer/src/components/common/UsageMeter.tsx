/** How full something is (CPU, memory, a storage), coloured on the shared scale and readable as a meter. */
import { usageLevel } from './HealthDot';

export interface UsageMeterProps {
  label: string;
  /** 0..1; undefined when not known. */
  fraction: number | undefined;
  /** Words next to the bar, e.g. "3.1 GiB of 8 GiB". */
  text: string;
}

export function UsageMeter({ label, fraction, text }: UsageMeterProps) {
  const known = fraction !== undefined && Number.isFinite(fraction);
  const percent = known ? Math.round(Math.min(1, Math.max(0, fraction)) * 100) : 0;
  // A meter must have a value: when none is known (an unreachable node) an empty track is drawn, hidden from
  // assistive technology, and the label and words are read as plain text instead.
  if (!known) {
    return (
      <div className="usage">
        <div className={`usage-track health-${usageLevel(fraction)}`} aria-hidden="true" />
        <span className="usage-text">
          <span className="sr-only">{label}: </span>
          {text}
        </span>
      </div>
    );
  }
  return (
    <div className="usage">
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className={`usage-track health-${usageLevel(fraction)}`}
      >
        <div className="usage-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="usage-text">{text}</span>
    </div>
  );
}
