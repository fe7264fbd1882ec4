/** Seed ISOs in a table: name, node, volume, size, age and the reason; orphans can be selected. */
import type { SeedRow } from '../../../../shared/channels/cleanup';
import { DataTable, type DataColumn } from '../../components/common';
import { formatBytes, formatDuration } from '../../format';
import { seedKey } from '../../stores/cleanup';

export interface SeedTableProps {
  label: string;
  seeds: SeedRow[];
  selected?: ReadonlySet<string>;
  onToggle?: (s: SeedRow) => void;
  onToggleAll?: (on: boolean) => void;
}

const columns: DataColumn<SeedRow>[] = [
  { id: 'name', header: 'Seed of', sortValue: (s) => s.name, cell: (s) => s.name },
  { id: 'node', header: 'Node', sortValue: (s) => s.node, cell: (s) => s.node },
  { id: 'volid', header: 'Volume', className: 'mono', sortValue: (s) => s.volid, cell: (s) => s.volid },
  { id: 'size', header: 'Size', align: 'end', sortValue: (s) => s.sizeBytes, cell: (s) => formatBytes(s.sizeBytes) },
  { id: 'age', header: 'Age', sortValue: (s) => s.ageSeconds, cell: (s) => formatDuration(s.ageSeconds) },
  { id: 'reason', header: 'Why', cell: (s) => s.reason },
];

export function SeedTable({ label, seeds, selected, onToggle, onToggleAll }: SeedTableProps) {
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={seeds}
      rowKey={seedKey}
      selection={
        selected !== undefined && onToggle !== undefined
          ? { selected, onToggle, onToggleAll, rowLabel: (s) => `Select ${s.volid} on ${s.node}` }
          : undefined
      }
    />
  );
}
