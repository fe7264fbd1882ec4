/**
 * One drawn row of the proxies grid. Memoised: a keystroke or a delta
 * redraws only the rows whose data, selection, position or shown age
 * changed, not every row in the window. Few elements per row, because a
 * keystroke that changes which rows match lays out and paints every drawn
 * row again (about 16 µs of the frame per cell at 20 rows, measured with
 * scripts/bench-renderer.ts): a text cell is one element carrying its whole
 * text as its tooltip (it ends in an ellipsis when narrow), the name's
 * button holds its text, the state cell is the badge. A new column should
 * be one element too. The name cell ends with the row's Actions button
 * (issue 16: the menu is drawn once, by the view, only while open), so it
 * costs no column of its own; the Last check cell reads its own entry of
 * the checks store.
 */
import { memo } from 'react';
import { toneOf } from '../../components/common/StateBadge';
import { clockColumns, nameText, type Column } from './columns';
import { ownerLabel, type ProxyRow } from './rows';
import { LastCheckCell } from './LastCheckCell';
import { RowActionsButton } from './actions/RowActionsButton';

export const ROW_HEIGHT = 34;

export const selectable = (r: ProxyRow) => r.owner !== 'foreign' && r.name !== undefined;

export interface ProxyTableRowProps {
  row: ProxyRow;
  index: number;
  start: number;
  columns: Column[];
  template: string;
  /** The name column is squeezed beside a Cluster column: the owner badge goes into the name's tooltip. */
  compact?: boolean;
  isSelected: boolean;
  isOpen: boolean;
  /** The grid's one Tab stop (roving tabindex). */
  isActive: boolean;
  now: number;
  onToggle: (row: ProxyRow) => void;
  onOpen: (row: ProxyRow) => void;
}

function NameCell({
  row,
  isActive,
  compact,
  onOpen,
}: {
  row: ProxyRow;
  isActive: boolean;
  compact: boolean;
  onOpen: (row: ProxyRow) => void;
}) {
  const owner = ownerLabel(row);
  const name = nameText(row);
  const badge = owner.label !== 'marked';
  return (
    <div role="gridcell" className="cell-name">
      {/* The button's name holds its visible text (WCAG 2.5.3): the owner badge sits beside it, not in it. The button
          carries the text itself (no inner span): one box fewer in every drawn row. */}
      <button
        type="button"
        tabIndex={-1}
        className="name-button name-text"
        title={compact && badge ? `${name} (${owner.label})` : name}
        aria-label={`Details of ${row.name ?? `VM ${row.vmid}, name not set yet`}`}
        onClick={() => onOpen(row)}
      >
        {name}
      </button>
      {badge && !compact && (
        <span title={owner.title} className={`state-badge owner-badge tone-${owner.tone}`}>
          {owner.label}
        </span>
      )}
      <RowActionsButton row={row} isActive={isActive} />
    </div>
  );
}

function ProxyTableRowView({
  row,
  index,
  start,
  columns,
  template,
  compact = false,
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
      style={{ gridTemplateColumns: template, top: start }}
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
        if (c.id === 'name') return <NameCell key="name" row={row} isActive={isActive} compact={compact} onOpen={onOpen} />;
        if (c.id === 'lastCheck')
          return (
            <div key={c.id} role="gridcell" className="cell-last-check">
              <LastCheckCell clusterId={row.clusterId} vmid={row.vmid} />
            </div>
          );
        const text = c.text(row, now);
        // The cell is the badge itself (its width fits the longest state): one box fewer per row.
        if (c.badge)
          return (
            <div key={c.id} role="gridcell" className={`cell-badge state-badge tone-${toneOf(text)}`}>
              {text}
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
    a.compact === b.compact &&
    a.isSelected === b.isSelected &&
    a.isOpen === b.isOpen &&
    a.isActive === b.isActive &&
    a.onToggle === b.onToggle &&
    a.onOpen === b.onOpen &&
    (a.now === b.now || clockColumns.every((c) => c.text(a.row, a.now) === c.text(b.row, b.now)))
  );
}

export const ProxyTableRow = memo(ProxyTableRowView, sameRow);
