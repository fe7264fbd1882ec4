/** The templates a cluster's profile names, each with its verdict from the last doctor run. */
import type { TemplateVerdict } from '../../../../shared/channels/doctor';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { EmptyState } from '../../components/common';
import { VerdictBadge, VerdictReasons } from './verdict';

export interface CatalogueTableProps {
  profile: ProfileSummary;
  verdicts: TemplateVerdict[] | undefined;
  editable: boolean;
  onRemove: (name: string) => void;
}

export function CatalogueTable({ profile, verdicts, editable, onRemove }: CatalogueTableProps) {
  const entries = Object.entries(profile.templates).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) {
    return <EmptyState title="The catalogue is empty">Add a discovered template below so proxies can be cloned from it.</EmptyState>;
  }
  return (
    <table className="data-table" aria-label={`Template catalogue of ${profile.name}`}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">VMID</th>
          <th scope="col">Verdict</th>
          <th scope="col">Reasons</th>
          {editable && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, { vmid }]) => {
          const verdict = verdicts?.find((v) => v.vmid === vmid);
          return (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{vmid}</td>
              <td>{verdicts ? <VerdictBadge verdict={verdict} /> : <span className="muted">checking…</span>}</td>
              <td>{verdicts && <VerdictReasons verdict={verdict} />}</td>
              {editable && (
                <td>
                  <button type="button" aria-label={`Remove ${name} from the catalogue`} onClick={() => onRemove(name)}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
