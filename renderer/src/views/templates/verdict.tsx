/** A template's suitability in a badge, with every reason it would be refused and the fix for each. */
import type { TemplateVerdict } from '../../../../shared/channels/doctor';
import { StateBadge } from '../../components/common';

export function VerdictBadge({ verdict }: { verdict: TemplateVerdict | undefined }) {
  if (!verdict) return <StateBadge state="unknown" label="Not found in the cluster" tone="bad" />;
  return verdict.suitable ? <StateBadge state="suitable" label="Suitable" /> : <StateBadge state="unsuitable" label="Unsuitable" />;
}

export function VerdictReasons({ verdict }: { verdict: TemplateVerdict | undefined }) {
  if (!verdict) return <span className="muted">No template with this VMID was found.</span>;
  if (verdict.problems.length === 0 && verdict.notes.length === 0) return <span className="muted">No problems found.</span>;
  return (
    <ul className="reasons">
      {verdict.problems.map((p) => (
        <li key={p.code}>
          {p.message} <span className="fix">Fix: {p.fix}</span>
        </li>
      ))}
      {verdict.notes.map((n) => (
        <li key={n} className="note">
          {n}
        </li>
      ))}
    </ul>
  );
}
