/**
 * VMs the scan found worth a look (half-built, missing their seed, foreign look-alikes), each with the reason and,
 * where one helps, the actions that act on it (VmSuggestions.tsx).
 */
import type { ReactNode } from 'react';
import type { VmRow } from '../../../../shared/channels/cleanup';
import { DataTable, type DataColumn } from '../../components/common';

const columns: DataColumn<VmRow>[] = [
  { id: 'name', header: 'Name', sortValue: (v) => v.name, cell: (v) => v.name },
  { id: 'vmid', header: 'VMID', sortValue: (v) => v.vmid, cell: (v) => v.vmid },
  { id: 'node', header: 'Node', sortValue: (v) => v.node, cell: (v) => v.node },
  { id: 'reason', header: 'Why', cell: (v) => v.reason },
];

export function VmList({ label, vms, note, actions }: { label: string; vms: VmRow[]; note: string; actions?: (v: VmRow) => ReactNode }) {
  const shown = actions ? [...columns, { id: 'actions', header: 'What to do', cell: actions } satisfies DataColumn<VmRow>] : columns;
  return (
    <section aria-label={label} className="cleanup-section">
      <h2>
        {label} ({vms.length})
      </h2>
      <p className="muted">{note}</p>
      <DataTable label={label} columns={shown} rows={vms} rowKey={(v) => `${v.node}/${v.vmid}`} />
    </section>
  );
}
