/**
 * The proxies table, virtualised: only the rows in view (plus a few) are
 * in the DOM, so 5,000 VMs scroll and filter like 50. ARIA table roles on
 * plain elements keep it readable; rows carry their index in the whole list.
 */
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { columns, gridTemplate } from './columns';
import type { ProxyRow, SortColumn, SortOrder } from './rows';

const ROW_HEIGHT = 34;

export interface ProxyTableProps {
  rows: ProxyRow[];
  order: SortOrder;
  onSort: (column: SortColumn) => void;
  selected: ReadonlySet<string>;
  onToggle: (row: ProxyRow) => void;
  onToggleAll: (on: boolean) => void;
  openKey: string | undefined;
  onOpen: (row: ProxyRow) => void;
  now: number;
}

const selectable = (r: ProxyRow) => r.owner !== 'foreign' && r.name !== undefined;

export function ProxyTable({ rows, order, onSort, selected, onToggle, onToggleAll, openKey, onOpen, now }: ProxyTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const selectableRows = rows.filter(selectable);
  const allSelected = selectableRows.length > 0 && selectableRows.every((r) => selected.has(r.key));

  return (
    <div className="proxy-table" role="table" aria-label="Proxies" aria-rowcount={rows.length + 1} aria-multiselectable="true">
      <div role="rowgroup" className="proxy-table-head">
        <div role="row" aria-rowindex={1} className="proxy-row" style={{ gridTemplateColumns: gridTemplate }}>
          <div role="columnheader" className="cell-check">
            <input type="checkbox" aria-label="Select all shown" checked={allSelected} onChange={(e) => onToggleAll(e.target.checked)} />
          </div>
          {columns.map((c) => (
            <div
              key={c.id}
              role="columnheader"
              title={c.missing}
              aria-sort={c.sort && order.column === c.sort ? (order.descending ? 'descending' : 'ascending') : undefined}
            >
              {c.sort ? (
                <button type="button" className="sort-button" onClick={() => c.sort && onSort(c.sort)}>
                  {c.header}
                  <span aria-hidden="true">{order.column === c.sort ? (order.descending ? ' ▼' : ' ▲') : ''}</span>
                </button>
              ) : (
                c.header
              )}
            </div>
          ))}
        </div>
      </div>
      <div ref={scrollRef} className="proxy-table-scroll" data-testid="proxy-scroll">
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const isSelected = selected.has(row.key);
            return (
              <div
                key={row.key}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={isSelected}
                data-open={openKey === row.key || undefined}
                className="proxy-row"
                style={{ gridTemplateColumns: gridTemplate, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={() => onOpen(row)}
              >
                <div role="cell" className="cell-check" onClick={(e) => e.stopPropagation()}>
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.name ?? `VM ${row.vmid}`}`}
                    checked={isSelected}
                    disabled={!selectable(row)}
                    title={selectable(row) ? undefined : 'Not made by Egress Desk or not named yet: cannot be deleted from here.'}
                    onChange={() => onToggle(row)}
                  />
                </div>
                {columns.map((c) => (
                  <div key={c.id} role="cell" className={`cell-${c.id}`}>
                    {c.id === 'name' ? (
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`Details of ${row.name ?? `VM ${row.vmid}`}`}
                        onClick={() => onOpen(row)}
                      >
                        {c.cell(row, now)}
                      </button>
                    ) : (
                      c.cell(row, now)
                    )}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
