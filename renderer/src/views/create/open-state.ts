/**
 * Whether the Create proxy dialog is open, what it opens on (a cluster and
 * template just built), and the Ctrl+N shortcut that opens it from any view
 * (it switches to Proxies, where the dialog lives).
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { isDialogOpen } from '../../components/common/focusable';
import { useUi } from '../../stores/ui';

/** Where a Create opened from elsewhere starts: the cluster, and the catalogue key of its template. */
export interface CreateStart {
  clusterId: string;
  template?: string;
}

export const useCreateDialog = create<{ open: boolean; start: CreateStart | undefined; setOpen(open: boolean, start?: CreateStart): void }>(
  (set) => ({
    open: false,
    start: undefined,
    setOpen: (open, start) => set({ open, start: open ? start : undefined }),
  }),
);

/** Opens Create proxy on the preferred cluster (a real one before the demo). */
export function openCreateProxy() {
  openCreateProxyOn(undefined);
}

/** Opens Create proxy on a cluster and template (one just built), or, undefined, as openCreateProxy. */
export function openCreateProxyOn(start: CreateStart | undefined) {
  useUi.getState().setView('proxies');
  useCreateDialog.getState().setOpen(true, start);
}

export function useNewProxyShortcut() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'n' || isDialogOpen()) return;
      e.preventDefault();
      openCreateProxy();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
