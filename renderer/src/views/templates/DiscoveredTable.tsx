/** Templates the doctor found in the cluster that the catalogue does not name yet. */
import type { TemplateVerdict } from '../../../../shared/channels/doctor';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { DataTable, EmptyState, type DataColumn } from '../../components/common';
import { VerdictBadge, VerdictReasons } from './verdict';

export interface DiscoveredTableProps {
  profile: ProfileSummary;
  verdicts: TemplateVerdict[];
  editable: boolean;
  onAdd: (verdict: TemplateVerdict) => void;
}

function addTitle(v: TemplateVerdict, editable: boolean): string | undefined {
  if (!editable) return 'The demo cluster is built in.';
  return v.suitable ? undefined : 'Create would refuse this template until the reasons are fixed.';
}

export function DiscoveredTable({ profile, verdicts, editable, onAdd }: DiscoveredTableProps) {
  const known = new Set(Object.values(profile.templates).map((t) => t.vmid));
  const found = verdicts.filter((v) => !known.has(v.vmid));
  const columns: DataColumn<TemplateVerdict>[] = [
    { id: 'name', header: 'Name', rowHeader: true, sortValue: (v) => v.name, cell: (v) => v.name },
    { id: 'vmid', header: 'VMID', sortValue: (v) => v.vmid, cell: (v) => v.vmid },
    { id: 'node', header: 'Node', sortValue: (v) => v.node, cell: (v) => v.node },
    { id: 'verdict', header: 'Verdict', sortValue: (v) => (v.suitable ? 0 : 1), cell: (v) => <VerdictBadge verdict={v} /> },
    { id: 'reasons', header: 'Reasons', cell: (v) => <VerdictReasons verdict={v} /> },
    {
      id: 'actions',
      header: 'Actions',
      cell: (v) => (
        <button
          type="button"
          aria-label={`Add ${v.name} to the catalogue`}
          disabled={!editable}
          title={addTitle(v, editable)}
          onClick={() => onAdd(v)}
        >
          Add
        </button>
      ),
    },
  ];
  return (
    <DataTable
      label={`Templates discovered in ${profile.name}`}
      columns={columns}
      rows={found}
      rowKey={(v) => String(v.vmid)}
      empty={<EmptyState title="Nothing else discovered">Every template in the cluster is in the catalogue.</EmptyState>}
    />
  );
}
