/**
 * One drawn row of the proxies grid. Memoised: a keystroke or a delta
 * redraws only the rows whose data, selection, position or shown age
 * changed, not every row in the window. Few elements per row: a text cell
 * is one element carrying its whole text as its tooltip (it ends in an
 * ellipsis when narrow).
 */
import { memo } from 'react';
import { toneOf } from '../../components/common/StateBadge';
import { clockColumns, nameText, type Column } from './columns';
import { ownerLabel, type ProxyRow } from './rows';

export const ROW_HEIGHT = 34;

export const selectable = (r: ProxyRow) => r.owner !== 'foreign' && r.name !== undefined;

export interface ProxyTableRowProps {
  row: ProxyRow;
  index: number;
  start: number;
  columns: Column[];
  template: string;
  isSelected: boolean;
  isOpen: boolean;
  /** The grid's one Tab stop (roving tabindex). */
  isActive: boolean;
  now: number;
  onToggle: (row: ProxyRow) => void;
  onOpen: (row: ProxyRow) => void;
}

function NameCell({ row, onOpen }: { row: ProxyRow; onOpen: (row: ProxyRow) => void }) {
  const owner = ownerLabel(row);
  const name = nameText(row);
  return (
    <div role="gridcell" className="cell-name">
      {/* The button's name holds its visible text (WCAG 2.5.3): the owner badge sits beside it, not in it. */}
      <button
        type="button"
        tabIndex={-1}
        className="name-button"
        aria-label={`Details of ${row.name ?? `VM ${row.vmid}, name not set yet`}`}
        onClick={() => onOpen(row)}
      >
        <span className="name-text" title={name}>
          {name}
        </span>
      </button>
      {owner.label !== 'marked' && (
        <span title={owner.title} className={`state-badge owner-badge tone-${owner.tone}`}>
          {owner.label}
        </span>
      )}
    </div>
  );
}

function ProxyTableRowView({
  row,
  index,
  start,
  columns,
  template,
  isSelected,
  isOpen,
  isActive,
  now,
  onToggle,
  onOpen,
}: ProxyTableRowProps) {
  const label = row.name ?? `VM ${row.vmid}`;
  const canSelect = selectable(row);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      tabIndex={isActive ? 0 : -1}
      data-key={row.key}
      data-index={index}
      data-open={isOpen || undefined}
      className="proxy-row"
      style={{ gridTemplateColumns: template, transform: `translateY(${start}px)` }}
      onClick={() => onOpen(row)}
    >
      <div role="gridcell" className="cell-check" onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={`Select ${label}`}
          checked={isSelected}
          disabled={!canSelect}
          title={canSelect ? undefined : 'Not made by Egress Desk or not named yet: cannot be deleted from here.'}
          onChange={() => onToggle(row)}
        />
      </div>
      {columns.map((c) => {
        if (c.id === 'name') return <NameCell key="name" row={row} onOpen={onOpen} />;
        const text = c.text(row, now);
        if (c.badge)
          return (
            <div key={c.id} role="gridcell" className="cell-badge">
              <span className={`state-badge tone-${toneOf(text)}`}>{text}</span>
            </div>
          );
        return (
          <div key={c.id} role="gridcell" className={c.mono ? 'cell-text mono' : 'cell-text'} title={text}>
            {text}
          </div>
        );
      })}
    </div>
  );
}

/** Same props, or only `now` moved without changing any text a clock column shows. */
function sameRow(a: ProxyTableRowProps, b: ProxyTableRowProps): boolean {
  return (
    a.row === b.row &&
    a.index === b.index &&
    a.start === b.start &&
    a.columns === b.columns &&
    a.template === b.template &&
    a.isSelected === b.isSelected &&
    a.isOpen === b.isOpen &&
    a.isActive === b.isActive &&
    a.onToggle === b.onToggle &&
    a.onOpen === b.onOpen &&
    (a.now === b.now || clockColumns.every((c) => c.text(a.row, a.now) === c.text(b.row, b.now)))
  );
}

export const ProxyTableRow = memo(ProxyTableRowView, sameRow);
