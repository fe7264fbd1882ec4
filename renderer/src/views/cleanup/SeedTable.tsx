/** Seed ISOs in a table: name, node, volume, size, age and the reason; orphans can be selected. */
import type { SeedRow } from '../../../../shared/channels/cleanup';
import { formatBytes, formatDuration } from '../../format';
import { seedKey } from '../../stores/cleanup';

export interface SeedTableProps {
  label: string;
  seeds: SeedRow[];
  selected?: ReadonlySet<string>;
  onToggle?: (s: SeedRow) => void;
  onToggleAll?: (on: boolean) => void;
}

export function SeedTable({ label, seeds, selected, onToggle, onToggleAll }: SeedTableProps) {
  const selectable = selected !== undefined && onToggle !== undefined;
  return (
    <table className="data-table" aria-label={label}>
      <thead>
        <tr>
          {selectable && (
            <th scope="col">
              <input
                type="checkbox"
                aria-label={`Select all ${label.toLowerCase()}`}
                checked={seeds.length > 0 && seeds.every((s) => selected.has(seedKey(s)))}
                onChange={(e) => onToggleAll?.(e.target.checked)}
              />
            </th>
          )}
          <th scope="col">Seed of</th>
          <th scope="col">Node</th>
          <th scope="col">Volume</th>
          <th scope="col">Size</th>
          <th scope="col">Age</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {seeds.map((s) => (
          <tr key={seedKey(s)} aria-selected={selectable ? selected.has(seedKey(s)) : undefined}>
            {selectable && (
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${s.volid} on ${s.node}`}
                  checked={selected.has(seedKey(s))}
                  onChange={() => onToggle(s)}
                />
              </td>
            )}
            <td>{s.name}</td>
            <td>{s.node}</td>
            <td className="mono">{s.volid}</td>
            <td>{formatBytes(s.sizeBytes)}</td>
            <td>{formatDuration(s.ageSeconds)}</td>
            <td>{s.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
