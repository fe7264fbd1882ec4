/** The one table of the list views: sortable headers with aria-sort, rows the keyboard walks, selection, children, the empty state. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataColumn } from '../../../renderer/src/components/common/DataTable';

interface Row {
  name: string;
  size?: number;
  kids?: Row[];
}

const rows: Row[] = [{ name: 'node10', size: 5 }, { name: 'node2', size: 30 }, { name: 'node1' }, { name: 'node3', size: 12 }];

const columns: DataColumn<Row>[] = [
  { id: 'name', header: 'Name', rowHeader: true, sortValue: (r) => r.name, cell: (r) => r.name },
  { id: 'size', header: 'Size', align: 'end', sortValue: (r) => r.size, cell: (r) => (r.size === undefined ? '—' : `${r.size} GiB`) },
  {
    id: 'action',
    header: 'Action',
    cell: (r) => (
      <button type="button" onClick={() => void 0}>
        Open {r.name}
      </button>
    ),
  },
];

const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('rowheader')
    .map((h) => h.textContent);

afterEach(cleanup);

describe('DataTable', () => {
  it('keeps the given order until a header is chosen; then sorts naturally, missing values last, and says so with aria-sort', () => {
    render(<DataTable label="Things" columns={columns} rows={rows} rowKey={(r) => r.name} />);
    expect(names()).toEqual(['node10', 'node2', 'node1', 'node3']);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.hasAttribute('aria-sort')).toBe(false);
    // A column without a sort key has no button.
    expect(within(screen.getByRole('columnheader', { name: 'Action' })).queryByRole('button')).toBeNull();

    fireEvent.click(within(nameHeader).getByRole('button'));
    expect(names()).toEqual(['node1', 'node2', 'node3', 'node10']);
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(nameHeader).getByRole('button'));
    expect(names()).toEqual(['node10', 'node3', 'node2', 'node1']);
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');

    const sizeHeader = screen.getByRole('columnheader', { name: /Size/ });
    fireEvent.click(within(sizeHeader).getByRole('button'));
    expect(names()).toEqual(['node10', 'node3', 'node2', 'node1']);
    expect(sizeHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(nameHeader.hasAttribute('aria-sort')).toBe(false);
    expect(sizeHeader.className).toContain('dt-end');
  });

  it('shows the empty state instead of a table when there are no rows', () => {
    render(<DataTable label="Things" columns={columns} rows={[]} rowKey={(r) => r.name} empty={<p>Nothing here yet.</p>} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Nothing here yet.')).toBeTruthy();
  });

  it('is a plain table (no focusable rows) when rows cannot be opened or selected', () => {
    render(<DataTable label="Things" columns={columns} rows={rows} rowKey={(r) => r.name} />);
    const body = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(body.every((r) => !r.hasAttribute('tabindex'))).toBe(true);
  });

  it('walks rows with the arrow keys, Home and End (one row in the tab order); Enter and a click open a row', () => {
    const onActivate = vi.fn();
    render(<DataTable label="Things" columns={columns} rows={rows} rowKey={(r) => r.name} onActivate={onActivate} currentKey="node2" />);
    const body = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    // The current row is the one in the tab order.
    expect(body.map((r) => r.tabIndex)).toEqual([-1, 0, -1, -1]);
    expect(body[1]!.getAttribute('aria-current')).toBe('true');

    body[1]!.focus();
    fireEvent.keyDown(body[1]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(body[2]);
    fireEvent.keyDown(body[2]!, { key: 'End' });
    expect(document.activeElement).toBe(body[3]);
    fireEvent.keyDown(body[3]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(body[3]);
    fireEvent.keyDown(body[3]!, { key: 'Home' });
    expect(document.activeElement).toBe(body[0]);
    fireEvent.keyDown(body[0]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(body[0]);
    expect(body.map((r) => r.tabIndex)).toEqual([0, -1, -1, -1]);

    fireEvent.keyDown(body[0]!, { key: 'Enter' });
    expect(onActivate).toHaveBeenLastCalledWith(rows[0]);
    fireEvent.click(within(body[3]!).getAllByRole('cell')[0]!);
    expect(onActivate).toHaveBeenLastCalledWith(rows[3]);
    // A control inside the row does its own thing, not the row's.
    onActivate.mockClear();
    fireEvent.click(within(body[2]!).getByRole('button', { name: 'Open node1' }));
    fireEvent.keyDown(within(body[2]!).getByRole('button', { name: 'Open node1' }), { key: 'Enter' });
    expect(onActivate).not.toHaveBeenCalled();
  });

  it('selects with checkboxes and with Space on a row; the header box selects all', () => {
    function Selectable() {
      const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
      const toggle = (r: Row) =>
        setSelected((s) => {
          const next = new Set(s);
          if (next.has(r.name)) next.delete(r.name);
          else next.add(r.name);
          return next;
        });
      return (
        <DataTable
          label="Things"
          columns={columns}
          rows={rows}
          rowKey={(r) => r.name}
          selection={{
            selected,
            onToggle: toggle,
            onToggleAll: (on) => setSelected(new Set(on ? rows.map((r) => r.name) : [])),
            rowLabel: (r) => `Select ${r.name}`,
          }}
        />
      );
    }
    render(<Selectable />);
    const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    fireEvent.click(box('Select node2'));
    expect(box('Select node2').checked).toBe(true);
    const body = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(body.map((r) => r.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false', 'false']);

    fireEvent.keyDown(body[0]!, { key: ' ' });
    expect(box('Select node10').checked).toBe(true);
    fireEvent.keyDown(body[0]!, { key: ' ' });
    expect(box('Select node10').checked).toBe(false);

    fireEvent.click(box('Select all things'));
    expect(rows.every((r) => box(`Select ${r.name}`).checked)).toBe(true);
    expect(box('Select all things').checked).toBe(true);
    fireEvent.click(box('Select all things'));
    expect(rows.some((r) => box(`Select ${r.name}`).checked)).toBe(false);
  });

  it('draws children under their parent, sorted among themselves', () => {
    const tree: Row[] = [
      { name: 'b', kids: [{ name: 'b2' }, { name: 'b1' }] },
      { name: 'a', kids: [] },
    ];
    render(<DataTable label="Tree" columns={columns} rows={tree} rowKey={(r) => r.name} subRows={(r) => r.kids} />);
    expect(names()).toEqual(['b', 'b2', 'b1', 'a']);
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(names()).toEqual(['a', 'b', 'b1', 'b2']);
    const body = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(body.map((r) => r.className)).toEqual(['', '', 'dt-child', 'dt-child']);
  });
});
