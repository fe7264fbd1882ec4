/** The templates a cluster's profile names, each with its verdict from the last doctor run. */
import type { CatalogueTemplateCheck, TemplateVerdict } from '../../../../shared/channels/doctor';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { DataTable, EmptyState, type DataColumn } from '../../components/common';
import { VerdictBadge, VerdictReasons } from './verdict';

export interface CatalogueTableProps {
  profile: ProfileSummary;
  verdicts: TemplateVerdict[] | undefined;
  editable: boolean;
  onRemove: (name: string) => void;
  /** The doctor's per-node judgement of the catalogue (issue 14): each per-node template with its verdict. */
  checks?: CatalogueTemplateCheck[] | undefined;
}

interface Entry {
  name: string;
  vmid: number;
  verdict: TemplateVerdict | undefined;
  /** A per-node template: the node that clones it (a child row of its entry). */
  node?: string;
  perNode?: Entry[];
}

export function CatalogueTable({ profile, verdicts, editable, onRemove, checks }: CatalogueTableProps) {
  // A catalogue VMID that is not a template (a VM not converted) has its verdict among the checks only.
  const verdictOf = (name: string, vmid: number) =>
    verdicts?.find((v) => v.vmid === vmid) ?? checks?.find((c) => c.key === name && c.vmid === vmid)?.verdict;
  const entries: Entry[] = Object.entries(profile.templates)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { vmid, perNode }]) => ({
      name,
      vmid,
      verdict: verdictOf(name, vmid),
      perNode: Object.entries(perNode ?? {}).map(([node, id]) => ({ name, vmid: id, node, verdict: verdictOf(name, id) })),
    }));
  const columns: DataColumn<Entry>[] = [
    {
      id: 'name',
      header: 'Name',
      rowHeader: true,
      sortValue: (e) => e.node ?? e.name,
      cell: (e) => (e.node ? `${e.name} on ${e.node}` : e.perNode?.length ? `${e.name} (other nodes)` : e.name),
    },
    { id: 'vmid', header: 'VMID', sortValue: (e) => e.vmid, cell: (e) => e.vmid },
    {
      id: 'verdict',
      header: 'Verdict',
      cell: (e) => (verdicts ? <VerdictBadge verdict={e.verdict} /> : <span className="muted">checking…</span>),
    },
    { id: 'reasons', header: 'Reasons', cell: (e) => verdicts && <VerdictReasons verdict={e.verdict} /> },
  ];
  if (editable)
    columns.push({
      id: 'actions',
      header: 'Actions',
      cell: (e) =>
        e.node ? null : (
          <button type="button" aria-label={`Remove ${e.name} from the catalogue`} onClick={() => onRemove(e.name)}>
            Remove
          </button>
        ),
    });
  return (
    <DataTable
      label={`Template catalogue of ${profile.name}`}
      columns={columns}
      rows={entries}
      rowKey={(e) => (e.node ? `${e.name}@${e.node}` : e.name)}
      subRows={(e) => e.perNode}
      empty={<EmptyState title="The catalogue is empty">Add a discovered template below so proxies can be cloned from it.</EmptyState>}
    />
  );
}
