/** The proxies table's columns: header text, how a cell is drawn, and which sort key it uses. */
import type { ReactNode } from 'react';
import { StateBadge } from '../../components/common/StateBadge';
import { formatDuration } from '../../format';
import { ownerLabel, type ProxyRow, type SortColumn } from './rows';

export interface Column {
  id: string;
  header: string;
  sort?: SortColumn;
  /** A CSS grid track size. */
  width: string;
  /** The header's tooltip: why the column can be empty for some rows. */
  missing?: string;
  cell(row: ProxyRow, now: number): ReactNode;
}

function machine(r: ProxyRow): string {
  if (r.cores === undefined && r.memoryMiB === undefined) return '—';
  const mem = r.memoryMiB === undefined ? '' : ` · ${r.memoryMiB >= 1024 ? `${r.memoryMiB / 1024} GiB` : `${r.memoryMiB} MiB`}`;
  return `${r.cores ?? '?'} vCPU${mem}`;
}

const ageText = (r: ProxyRow, now: number) => (r.createdAt ? formatDuration((now - Date.parse(r.createdAt)) / 1000) : '—');

const notKnown = 'Proxmox does not record which template a VM was cloned from: the app knows it for the proxies it made.';

export const columns: Column[] = [
  {
    id: 'name',
    header: 'Name',
    sort: 'name',
    width: 'minmax(180px, 2fr)',
    cell: (r) => {
      const owner = ownerLabel(r);
      return (
        <>
          <span className="cell-name">{r.name ?? `(VM ${r.vmid}, name not set yet)`}</span>
          {owner.label !== 'marked' && (
            <span title={owner.title} className="owner-badge">
              <StateBadge state={owner.label} tone={owner.tone} />
            </span>
          )}
        </>
      );
    },
  },
  { id: 'state', header: 'State', sort: 'state', width: '110px', cell: (r) => <StateBadge state={r.state} /> },
  { id: 'address', header: 'Address', sort: 'address', width: 'minmax(110px, 1fr)', cell: (r) => r.address ?? '—' },
  { id: 'node', header: 'Node', sort: 'node', width: 'minmax(80px, 1fr)', cell: (r) => r.node },
  { id: 'vmid', header: 'VMID', sort: 'vmid', width: '70px', cell: (r) => r.vmid },
  { id: 'template', header: 'Template', width: 'minmax(80px, 1fr)', missing: notKnown, cell: (r) => r.template ?? '—' },
  {
    id: 'machine',
    header: 'Machine type',
    sort: 'machine',
    width: 'minmax(110px, 1fr)',
    cell: (r) => (r.machineType ? `${r.machineType} · ${machine(r)}` : machine(r)),
  },
  { id: 'age', header: 'Age', sort: 'age', width: '90px', cell: (r, now) => ageText(r, now) },
  { id: 'uid', header: 'UID', sort: 'uid', width: 'minmax(120px, 1.5fr)', cell: (r) => <span className="mono">{r.uid ?? '—'}</span> },
];

/** The columns whose text depends on the time (a drawn row is redrawn when that text changes). */
export const clockColumns: { id: string; text(row: ProxyRow, now: number): string }[] = [{ id: 'age', text: ageText }];

export const gridTemplate = ['36px', ...columns.map((c) => c.width)].join(' ');
