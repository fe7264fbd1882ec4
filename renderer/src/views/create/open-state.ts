/**
 * Whether the Create proxy dialog is open, and the Ctrl+N shortcut that
 * opens it from any view (it switches to Proxies, where the dialog lives).
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { isDialogOpen } from '../../components/common/focusable';
import { useUi } from '../../stores/ui';

export const useCreateDialog = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

export function openCreateProxy() {
  useUi.getState().setView('proxies');
  useCreateDialog.getState().setOpen(true);
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
