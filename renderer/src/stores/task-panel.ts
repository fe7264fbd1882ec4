/** Whether the shell's task panel (running and recent tasks, over the status bar) is open: presentation state only. */
import { create } from 'zustand';
import { useTasks } from './tasks';
import { useUi } from './ui';

export interface TaskPanelState {
  open: boolean;
  setOpen(open: boolean): void;
  toggle(): void;
}

export const useTaskPanel = create<TaskPanelState>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
  toggle: () => set((s) => ({ open: !s.open })),
}));

/** Opens the Tasks view on one task, its details and Proxmox log; the panel steps aside. */
export function showTask(id: string): void {
  useTasks.getState().select(id);
  useUi.getState().setView('tasks');
  useTaskPanel.getState().setOpen(false);
}
