/** One column of the proxies table, as columns.tsx lists them and LastCheckCell.tsx adds its own. */
import type { ProxyRow, SortColumn } from './rows';

export interface Column {
  id: string;
  header: string;
  sort?: SortColumn;
  /** Smallest width in px that shows a typical value whole. */
  min: number;
  /** Share of the spare width (0: fixed at `min`). */
  grow: number;
  /** Lower stays longer when the table is narrow; 0 is never dropped. */
  priority: number;
  /** The header's tooltip: why the column can be empty for some rows. */
  missing?: string;
  /** The cell's whole text (what a truncated cell shows as its tooltip). */
  text(row: ProxyRow, now: number): string;
  /** Drawn as a state badge instead of plain text. */
  badge?: boolean;
  mono?: boolean;
}
