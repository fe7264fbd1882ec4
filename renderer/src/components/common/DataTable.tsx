/**
 * The one table every list view draws (Nodes, Templates, Cleanup, the
 * wizard's privileges, Tasks): a native <table> with column headers, an
 * optional row header, sortable headers as buttons with aria-sort, an
 * empty state, optional selection by checkbox, and rows the keyboard can
 * walk (arrow keys, Home, End; Space toggles the selection, Enter opens the
 * row). Children of a row (a bulk create's proxies) follow their parent.
 *
 * Sorting is a column and a direction held here; TanStack Table was weighed
 * and left out: this is all the state it would have kept, and a new
 * dependency is more than that is worth.
 */
import { useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import './data-table.css';

export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  column: string;
  direction: SortDirection;
}

export interface CellContext {
  /** 0 for a top-level row, 1 for a child of one. */
  depth: number;
}

export interface DataColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T, context: CellContext) => ReactNode;
  /** Draw this column's cells as the row's header (<th scope="row">): what names the row. */
  rowHeader?: boolean;
  /** Makes the column sortable by this value (numbers by size, text in natural order, missing values last). */
  sortValue?: (row: T) => string | number | undefined;
  /** Makes the column sortable by this comparison (ascending); wins over sortValue. */
  compare?: (a: T, b: T) => number;
  align?: 'start' | 'end' | 'center';
  /** A CSS width for the column (its <col>), e.g. '8em' or '20%'. */
  width?: string;
  /** 1 (default) always shows; 2 hides in a narrow window; 3 hides first. */
  priority?: 1 | 2 | 3;
  className?: string;
}

export interface DataSelection<T> {
  selected: ReadonlySet<string>;
  onToggle: (row: T) => void;
  /** With it, the header has a checkbox that selects or clears every row. */
  onToggleAll?: (on: boolean) => void;
  /** The checkbox's accessible name for a row. */
  rowLabel: (row: T) => string;
  allLabel?: string;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  /** A visible caption; without it the label names the table for assistive technology only. */
  caption?: ReactNode;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Shown instead of the table when there are no rows; nothing when absent. */
  empty?: ReactNode;
  initialSort?: SortState;
  selection?: DataSelection<T>;
  /** Enter on a row, or a click on it outside its own controls. */
  onActivate?: (row: T) => void;
  /** The row shown in full elsewhere (aria-current). */
  currentKey?: string;
  rowClassName?: (row: T) => string | undefined;
  /** Rows drawn under this one, sorted among themselves. */
  subRows?: (row: T) => readonly T[] | undefined;
  className?: string;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function byValue<T>(value: (row: T) => string | number | undefined) {
  return (a: T, b: T): number => {
    const x = value(a);
    const y = value(b);
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return collator.compare(String(x), String(y));
  };
}

/** The rows in the order the sort asks (stable: equal rows keep their given order). */
export function sortRows<T>(rows: readonly T[], columns: readonly DataColumn<T>[], sort: SortState | undefined): T[] {
  const column = sort && columns.find((c) => c.id === sort.column);
  const compare = column?.compare ?? (column?.sortValue ? byValue(column.sortValue) : undefined);
  if (!compare) return [...rows];
  const sign = sort!.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => sign * compare(a.row, b.row) || a.i - b.i)
    .map((e) => e.row);
}

const interactive = 'a, button, input, select, textarea, summary, [role="button"]';
const alignClass = { start: undefined, end: 'dt-end', center: 'dt-center' } as const;

export function DataTable<T>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  empty,
  initialSort,
  selection,
  onActivate,
  currentKey,
  rowClassName,
  subRows,
  className,
}: DataTableProps<T>) {
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const [focusKey, setFocusKey] = useState<string>();
  const body = useRef<HTMLTableSectionElement>(null);

  const ordered = useMemo(() => {
    const out: { row: T; depth: number }[] = [];
    for (const row of sortRows(rows, columns, sort)) {
      out.push({ row, depth: 0 });
      const children = subRows?.(row);
      if (children?.length) for (const child of sortRows(children, columns, sort)) out.push({ row: child, depth: 1 });
    }
    return out;
  }, [rows, columns, sort, subRows]);

  if (rows.length === 0) return <>{empty ?? null}</>;

  const keyed = ordered.map((e) => ({ ...e, key: rowKey(e.row) }));
  const walkable = onActivate !== undefined || selection !== undefined;
  // Roving focus: one row is in the tab order, the arrow keys move among the rest.
  const tabKey = keyed.find((e) => e.key === focusKey)?.key ?? keyed.find((e) => e.key === currentKey)?.key ?? keyed[0]?.key;

  const toggleSort = (id: string) =>
    setSort((s) => ({ column: id, direction: s?.column === id && s.direction === 'ascending' ? 'descending' : 'ascending' }));

  const focusRow = (index: number) => {
    const at = Math.max(0, Math.min(keyed.length - 1, index));
    const target = keyed[at];
    if (!target) return;
    setFocusKey(target.key);
    body.current?.rows[at]?.focus();
  };

  const onRowKey = (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: T) => {
    if (e.target !== e.currentTarget) return; // a control inside the row keeps its own keys
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: keyed.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      focusRow(moves[e.key]!);
    } else if (e.key === ' ' && selection) {
      e.preventDefault();
      selection.onToggle(row);
    } else if (e.key === 'Enter' && onActivate) {
      e.preventDefault();
      onActivate(row);
    }
  };

  const onRowClick = (e: MouseEvent<HTMLTableRowElement>, key: string, row: T) => {
    setFocusKey(key);
    const control = (e.target as Element).closest(interactive);
    if (control && e.currentTarget.contains(control)) return;
    onActivate?.(row);
  };

  const allSelected = selection !== undefined && keyed.length > 0 && keyed.every((e) => selection.selected.has(e.key));
  const hasWidths = columns.some((c) => c.width);

  return (
    <div className="table-scroll">
      <table className={['data-table', walkable ? 'dt-walkable' : undefined, className].filter(Boolean).join(' ')} aria-label={label}>
        {caption && <caption>{caption}</caption>}
        {hasWidths && (
          <colgroup>
            {selection && <col className="dt-select-col" />}
            {columns.map((c) => (
              <col
                key={c.id}
                className={c.priority && c.priority > 1 ? `dt-p${c.priority}` : undefined}
                style={c.width ? { width: c.width } : undefined}
              />
            ))}
          </colgroup>
        )}
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="dt-select">
                {selection.onToggleAll ? (
                  <input
                    type="checkbox"
                    aria-label={selection.allLabel ?? `Select all ${label.toLowerCase()}`}
                    checked={allSelected}
                    onChange={(e) => selection.onToggleAll?.(e.target.checked)}
                  />
                ) : (
                  <span className="sr-only">Selected</span>
                )}
              </th>
            )}
            {columns.map((c) => {
              const sortable = c.compare !== undefined || c.sortValue !== undefined;
              const sorted = sort?.column === c.id ? sort.direction : undefined;
              return (
                <th key={c.id} scope="col" aria-sort={sorted} className={cellClass(c)}>
                  {sortable ? (
                    <button type="button" className="dt-sort" onClick={() => toggleSort(c.id)}>
                      {c.header}
                      <span className="dt-sort-mark" aria-hidden="true">
                        {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody ref={body}>
          {keyed.map(({ row, depth, key }, index) => {
            const selected = selection?.selected.has(key);
            const classes = [rowClassName?.(row), depth > 0 ? 'dt-child' : undefined].filter(Boolean).join(' ');
            return (
              <tr
                key={key}
                data-row-key={key}
                className={classes || undefined}
                aria-selected={selection ? selected : undefined}
                aria-current={currentKey !== undefined && key === currentKey ? 'true' : undefined}
                tabIndex={walkable ? (key === tabKey ? 0 : -1) : undefined}
                onKeyDown={walkable ? (e) => onRowKey(e, index, row) : undefined}
                onClick={walkable ? (e) => onRowClick(e, key, row) : undefined}
              >
                {selection && (
                  <td className="dt-select">
                    <input
                      type="checkbox"
                      aria-label={selection.rowLabel(row)}
                      checked={selected}
                      onChange={() => selection.onToggle(row)}
                    />
                  </td>
                )}
                {columns.map((c) => {
                  const content = c.cell(row, { depth });
                  return c.rowHeader ? (
                    <th key={c.id} scope="row" className={cellClass(c)}>
                      {content}
                    </th>
                  ) : (
                    <td key={c.id} className={cellClass(c)}>
                      {content}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function cellClass<T>(c: DataColumn<T>): string | undefined {
  const classes = [c.align ? alignClass[c.align] : undefined, c.priority && c.priority > 1 ? `dt-p${c.priority}` : undefined, c.className];
  return classes.filter(Boolean).join(' ') || undefined;
}
