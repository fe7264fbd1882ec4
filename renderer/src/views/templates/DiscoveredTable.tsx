/** Templates the doctor found in the cluster that the catalogue does not name yet. */
import type { TemplateVerdict } from '../../../../shared/channels/doctor';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { EmptyState } from '../../components/common';
import { VerdictBadge, VerdictReasons } from './verdict';

export interface DiscoveredTableProps {
  profile: ProfileSummary;
  verdicts: TemplateVerdict[];
  editable: boolean;
  onAdd: (verdict: TemplateVerdict) => void;
}

export function DiscoveredTable({ profile, verdicts, editable, onAdd }: DiscoveredTableProps) {
  const known = new Set(Object.values(profile.templates).map((t) => t.vmid));
  const found = verdicts.filter((v) => !known.has(v.vmid));
  if (found.length === 0)
    return <EmptyState title="Nothing else discovered">Every template in the cluster is in the catalogue.</EmptyState>;
  return (
    <table className="data-table" aria-label={`Templates discovered in ${profile.name}`}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">VMID</th>
          <th scope="col">Node</th>
          <th scope="col">Verdict</th>
          <th scope="col">Reasons</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {found.map((v) => (
          <tr key={v.vmid}>
            <th scope="row">{v.name}</th>
            <td>{v.vmid}</td>
            <td>{v.node}</td>
            <td>
              <VerdictBadge verdict={v} />
            </td>
            <td>
              <VerdictReasons verdict={v} />
            </td>
            <td>
              <button
                type="button"
                aria-label={`Add ${v.name} to the catalogue`}
                disabled={!editable}
                title={
                  editable
                    ? v.suitable
                      ? undefined
                      : 'Create would refuse this template until the reasons are fixed.'
                    : 'The demo cluster is built in.'
                }
                onClick={() => onAdd(v)}
              >
                Add
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
