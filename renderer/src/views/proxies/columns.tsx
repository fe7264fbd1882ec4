/**
 * The proxies table's columns: header text, the full text of a cell (its
 * tooltip when the cell is too narrow to show it whole), the sort key, and
 * how much room the column needs. When the table is narrower than every
 * column's minimum, columns are dropped by priority (the drawer still shows
 * everything), so the table never scrolls sideways.
 */
import { formatDuration } from '../../format';
import { lastCheckColumn } from './LastCheckCell';
import type { Column } from './column';
import type { ProxyRow } from './rows';

export type { Column } from './column';

function machine(r: ProxyRow): string {
  if (r.cores === undefined && r.memoryMiB === undefined) return '—';
  const mem = r.memoryMiB === undefined ? '' : ` · ${r.memoryMiB >= 1024 ? `${r.memoryMiB / 1024} GiB` : `${r.memoryMiB} MiB`}`;
  return `${r.cores ?? '?'} vCPU${mem}`;
}

const ageText = (r: ProxyRow, now: number) => (r.createdAt ? formatDuration((now - Date.parse(r.createdAt)) / 1000) : '—');

export const nameText = (r: ProxyRow) => r.name ?? `(VM ${r.vmid}, name not set yet)`;

const notKnown = 'Proxmox does not record which template a VM was cloned from: the app knows it for the proxies it made.';

export const allColumns: Column[] = [
  { id: 'name', header: 'Name', sort: 'name', min: 210, grow: 2.4, priority: 0, text: nameText },
  { id: 'state', header: 'State', sort: 'state', min: 104, grow: 0, priority: 1, text: (r) => r.state, badge: true },
  { id: 'address', header: 'Address', sort: 'address', min: 112, grow: 0.8, priority: 2, text: (r) => r.address ?? '—' },
  { id: 'cluster', header: 'Cluster', sort: 'cluster', min: 110, grow: 1, priority: 3, text: (r) => r.clusterName },
  { id: 'node', header: 'Node', sort: 'node', min: 72, grow: 0.6, priority: 4, text: (r) => r.node },
  { id: 'vmid', header: 'VMID', sort: 'vmid', min: 64, grow: 0, priority: 5, text: (r) => String(r.vmid) },
  {
    id: 'machine',
    header: 'Machine type',
    sort: 'machine',
    min: 124,
    grow: 0.8,
    priority: 7,
    text: (r) => (r.machineType ? `${r.machineType} · ${machine(r)}` : machine(r)),
  },
  { id: 'age', header: 'Age', sort: 'age', min: 76, grow: 0, priority: 6, text: ageText },
  lastCheckColumn,
  { id: 'template', header: 'Template', min: 100, grow: 0.8, priority: 8, missing: notKnown, text: (r) => r.template ?? '—' },
  { id: 'uid', header: 'UID', sort: 'uid', min: 130, grow: 1.2, priority: 9, text: (r) => r.uid ?? '—', mono: true },
];

/** The checkbox column, row padding and the gap between tracks (kept in step with proxies.css). */
export const CHECK_WIDTH = 36;
export const ROW_PADDING = 16;
export const COLUMN_GAP = 8;

export interface Layout {
  columns: Column[];
  /** The CSS grid template for every row, the checkbox column first. */
  template: string;
  /** Name and Cluster are at their SQUEEZED widths: the name cell shows no owner badge. */
  compact: boolean;
}

/**
 * Least widths of Name and Cluster when both must stay: a long text is cut (its tooltip whole) rather than dropped,
 * and the name cell leaves out its owner badge (said in the name's tooltip and the drawer) so the name still shows.
 */
const SQUEEZED: Record<string, number> = { name: 130, cluster: 90 };
/** Name, State, Address, Cluster and Last check: the narrower mins are tried before any of these is dropped. */
const ESSENTIAL = 3.5;

/**
 * The columns that fit `width` (px; 0 when not measured yet: all of them), in
 * table order. The Cluster column is there only when more than one cluster is listed, and then it outlasts every
 * column but Name and State: the same name on two clusters must stay told apart (issue 23), so the name is cut to
 * the SQUEEZED widths before the cluster is dropped (beside the drawer at 1024 px).
 */
export function layoutFor(width: number, withCluster: boolean): Layout {
  let shown = allColumns.filter((c) => withCluster || c.id !== 'cluster');
  let compact = false;
  const need = (cs: Column[]) => ROW_PADDING + CHECK_WIDTH + cs.reduce((sum, c) => sum + c.min + COLUMN_GAP, 0);
  if (width > 0) {
    const kept = (c: Column) => withCluster && ['state', 'cluster'].includes(c.id);
    const dropOrder = [...shown].sort((a, b) => b.priority - a.priority);
    const drop = (candidates: Column[]) => {
      for (const c of candidates) {
        if (need(shown) <= width || c.priority === 0) break;
        shown = shown.filter((s) => s !== c);
      }
    };
    const current = (cs: Column[]) => cs.map((c) => shown.find((s) => s.id === c.id)).filter((c) => c !== undefined);
    drop(dropOrder.filter((c) => c.priority > ESSENTIAL));
    if (withCluster && need(shown) > width) {
      compact = true;
      shown = shown.map((c) => (SQUEEZED[c.id] ? { ...c, min: SQUEEZED[c.id]! } : c));
    }
    drop(current(dropOrder.filter((c) => c.priority <= ESSENTIAL && !kept(c))));
    drop(current(dropOrder.filter(kept)));
  }
  const template = [`${CHECK_WIDTH}px`, ...shown.map((c) => (c.grow ? `minmax(${c.min}px, ${c.grow}fr)` : `${c.min}px`))].join(' ');
  return { columns: shown, template, compact };
}

/** The columns whose text depends on the time (a drawn row is redrawn when that text changes). */
export const clockColumns: { id: string; text(row: ProxyRow, now: number): string }[] = [{ id: 'age', text: ageText }];
