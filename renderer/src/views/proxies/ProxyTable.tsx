/**
 * The proxies grid, virtualised: only the rows in view (plus a few) are in
 * the DOM, so 5,000 VMs scroll and filter like 50. An ARIA grid (rows carry
 * their index in the whole list and their selection) with one Tab stop, the
 * active row: ↑/↓, Home/End, PageUp/PageDown move between rows, Space
 * selects, Enter opens the details. Delete is the view's (it deletes the
 * selection). Columns fit the measured width: the lowest-priority ones go
 * first, so the grid never scrolls sideways.
 */
import { useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { layoutFor } from './columns';
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
  /** More than one cluster listed: a Cluster column tells their VMs apart. */
  withCluster: boolean;
  now: number;
}

/** The drawn row of `key` inside `container`, if it is drawn. */
export function rowElement(container: HTMLElement | null, key: string): HTMLElement | undefined {
  if (!container) return undefined;
  for (const el of container.querySelectorAll<HTMLElement>('[role="row"][data-key]')) if (el.dataset.key === key) return el;
  return undefined;
}

/** The width rows are laid out in (the scroll box without its scrollbar), followed as it changes. */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export function ProxyTable({ rows, order, onSort, selected, onToggle, onToggleAll, openKey, onOpen, withCluster, now }: ProxyTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // One row beyond each edge (the library's default): every drawn row is laid out and painted again when a
    // keystroke changes which rows match, so rows nobody sees are kept to the fewest.
    overscan: 1,
  });
  const width = useWidth(scrollRef);
  const { columns, template, compact } = useMemo(() => layoutFor(width, withCluster), [width, withCluster]);
  const allSelected = useMemo(() => {
    let any = false;
    for (const r of rows) {
      if (!selectable(r)) continue;
      if (!selected.has(r.key)) return false;
      any = true;
    }
    return any;
  }, [rows, selected]);

  // The active row (the grid's Tab stop), and the row to focus once it is drawn after a move.
  const [activeKey, setActiveKey] = useState<string>();
  const pendingFocus = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    if (!key) return;
    const el = rowElement(scrollRef.current, key);
    if (el) {
      pendingFocus.current = undefined;
      el.focus({ preventScroll: true });
    }
  });

  const items = virtualizer.getVirtualItems();
  const tabKey =
    activeKey !== undefined && items.some((i) => rows[i.index]?.key === activeKey) ? activeKey : rows[items[0]?.index ?? 0]?.key;

  const moveTo = (index: number) => {
    const to = Math.max(0, Math.min(rows.length - 1, index));
    const target = rows[to];
    if (!target) return;
    virtualizer.scrollToIndex(to, { align: 'auto' });
    setActiveKey(target.key);
    pendingFocus.current = target.key;
    const el = rowElement(scrollRef.current, target.key);
    if (el) {
      pendingFocus.current = undefined;
      el.focus({ preventScroll: true });
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('[role="row"][data-key]');
    if (!rowEl) return;
    const index = Number(rowEl.dataset.index);
    const row = rows[index];
    if (!row) return;
    const onRow = target === rowEl;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + page, PageUp: index - page };
    if (onRow) Object.assign(moves, { Home: 0, End: rows.length - 1 });
    const next = moves[e.key];
    if (next !== undefined) {
      e.preventDefault();
      moveTo(next);
    } else if (e.key === ' ' && onRow) {
      e.preventDefault();
      if (selectable(row)) onToggle(row);
    } else if (e.key === 'Enter' && onRow) {
      e.preventDefault();
      onOpen(row);
    }
  };
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const key = (e.target as HTMLElement).closest<HTMLElement>('[role="row"][data-key]')?.dataset.key;
    if (key !== undefined && key !== activeKey) setActiveKey(key);
  };

  return (
    <div
      className="proxy-table"
      role="grid"
      aria-label="Proxies"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length + 1}
      aria-multiselectable="true"
    >
      <div role="rowgroup" className="proxy-table-head">
        <div role="row" aria-rowindex={1} className="proxy-row" style={{ gridTemplateColumns: template }}>
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
      <div ref={scrollRef} className="proxy-table-scroll" data-testid="proxy-scroll" onKeyDown={onKeyDown} onFocus={onFocus}>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            return (
              row && (
                // Keyed by position, not by VM: a keystroke that changes which rows match rewrites the drawn rows'
                // text in place instead of dropping and building some thirty rows of elements.
                <ProxyTableRow
                  key={item.index}
                  row={row}
                  index={item.index}
                  start={item.start}
                  columns={columns}
                  template={template}
                  compact={compact}
                  isSelected={selected.has(row.key)}
                  isOpen={openKey === row.key}
                  isActive={tabKey === row.key}
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
