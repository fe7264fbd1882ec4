/**
 * A row's Actions button (issue 16): one small element per drawn row. The
 * menu itself (ActionMenu) is rendered once, by the view, only while open;
 * the button only tells the store which row and where. It ends the row's
 * name cell (no column of its own: the grid keeps its width for data), and
 * is a Tab stop on the grid's active row only.
 */
import { useProxyActions } from './action-store';
import type { ProxyRow } from '../rows';

export function RowActionsButton({ row, isActive }: { row: ProxyRow; isActive: boolean }) {
  const open = useProxyActions((s) => s.menu?.row.key === row.key);
  return (
    <button
      type="button"
      tabIndex={isActive ? 0 : -1}
      className="row-actions-button"
      aria-label={`Actions for ${row.name ?? `VM ${row.vmid}`}`}
      aria-haspopup="menu"
      aria-expanded={open}
      onClick={(e) => {
        e.stopPropagation();
        const { openMenu, closeMenu } = useProxyActions.getState();
        if (open) closeMenu();
        else openMenu(row, e.currentTarget);
      }}
    >
      ⋯
    </button>
  );
}
