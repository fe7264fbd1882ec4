/**
 * One drawn row of the proxies table. Memoised: a keystroke or a delta
 * redraws only the rows whose data, selection, position or shown age
 * changed, not every row in the window.
 */
import { memo } from 'react';
import { clockColumns, columns, gridTemplate } from './columns';
import type { ProxyRow } from './rows';

export const ROW_HEIGHT = 34;

export const selectable = (r: ProxyRow) => r.owner !== 'foreign' && r.name !== undefined;

export interface ProxyTableRowProps {
  row: ProxyRow;
  index: number;
  start: number;
  isSelected: boolean;
  isOpen: boolean;
  now: number;
  onToggle: (row: ProxyRow) => void;
  onOpen: (row: ProxyRow) => void;
}

function ProxyTableRowView({ row, index, start, isSelected, isOpen, now, onToggle, onOpen }: ProxyTableRowProps) {
  const label = row.name ?? `VM ${row.vmid}`;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      data-open={isOpen || undefined}
      className="proxy-row"
      style={{ gridTemplateColumns: gridTemplate, transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(row)}
    >
      <div role="cell" className="cell-check" onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          aria-label={`Select ${label}`}
          checked={isSelected}
          disabled={!selectable(row)}
          title={selectable(row) ? undefined : 'Not made by Egress Desk or not named yet: cannot be deleted from here.'}
          onChange={() => onToggle(row)}
        />
      </div>
      {columns.map((c) => (
        <div key={c.id} role="cell" className={`cell-${c.id}`}>
          {c.id === 'name' ? (
            <button type="button" className="link-button" aria-label={`Details of ${label}`} onClick={() => onOpen(row)}>
              {c.cell(row, now)}
            </button>
          ) : (
            c.cell(row, now)
          )}
        </div>
      ))}
    </div>
  );
}

/** Same props, or only `now` moved without changing any text a clock column shows. */
function sameRow(a: ProxyTableRowProps, b: ProxyTableRowProps): boolean {
  return (
    a.row === b.row &&
    a.index === b.index &&
    a.start === b.start &&
    a.isSelected === b.isSelected &&
    a.isOpen === b.isOpen &&
    a.onToggle === b.onToggle &&
    a.onOpen === b.onOpen &&
    (a.now === b.now || clockColumns.every((c) => c.text(a.row, a.now) === c.text(b.row, b.now)))
  );
}

export const ProxyTableRow = memo(ProxyTableRowView, sameRow);
