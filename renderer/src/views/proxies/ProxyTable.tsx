/**
 * The proxies table, virtualised: only the rows in view (plus a few) are
 * in the DOM, so 5,000 VMs scroll and filter like 50. ARIA table roles on
 * plain elements keep it readable; rows carry their index in the whole list.
 */
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { columns, gridTemplate } from './columns';
import { ProxyTableRow, ROW_HEIGHT, selectable } from './ProxyTableRow';
import type { ProxyRow, SortColumn, SortOrder } from './rows';

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

export function ProxyTable({ rows, order, onSort, selected, onToggle, onToggleAll, openKey, onOpen, now }: ProxyTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const selectableRows = useMemo(() => rows.filter(selectable), [rows]);
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
            return (
              row && (
                <ProxyTableRow
                  key={row.key}
                  row={row}
                  index={item.index}
                  start={item.start}
                  isSelected={selected.has(row.key)}
                  isOpen={openKey === row.key}
                  now={now}
                  onToggle={onToggle}
                  onOpen={onOpen}
                />
              )
            );
          })}
        </div>
      </div>
    </div>
  );
}
