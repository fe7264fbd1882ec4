/**
 * Unsaved edits and the question before leaving them. A section with edits
 * not yet saved registers here (`useUnsavedGuard`); the UI store's view
 * switch (the Nav, the Ctrl+1…7 shortcuts, any link to another view) asks
 * `leaveAllowed` first, and while anything is unsaved it parks the target
 * in `pendingView` and the shell asks "Leave without saving?" (LeaveGuard
 * switches the view on a yes; this store knows no other store). Closing or
 * reloading the tab with unsaved edits gets the browser's own question.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { ViewId } from './views';

export interface UnsavedState {
  /** Sections holding unsaved edits, by key, each with what it is called ("Polling and checks"). */
  sections: Record<string, string>;
  /** The view asked for while edits were unsaved. */
  pendingView: ViewId | undefined;
  setUnsaved(key: string, label: string | undefined): void;
  /** Drops the unsaved edits and answers the view to leave for (`pendingView`): the shell switches to it. */
  confirmLeave(): ViewId | undefined;
  /** Stays, keeping the edits. */
  cancelLeave(): void;
}

export const useUnsaved = create<UnsavedState>((set, get) => ({
  sections: {},
  pendingView: undefined,
  setUnsaved: (key, label) =>
    set((s) => {
      if (label === undefined) {
        if (!(key in s.sections)) return s;
        const { [key]: _gone, ...rest } = s.sections;
        return { sections: rest };
      }
      return s.sections[key] === label ? s : { sections: { ...s.sections, [key]: label } };
    }),
  confirmLeave: () => {
    const target = get().pendingView;
    set({ sections: {}, pendingView: undefined });
    return target;
  },
  cancelLeave: () => set({ pendingView: undefined }),
}));

/** Whether the view may switch to `target` now; if not, the question is raised and the switch waits for the answer. */
export function leaveAllowed(target: ViewId, current: ViewId): boolean {
  const { sections } = useUnsaved.getState();
  if (target === current || Object.keys(sections).length === 0) return true;
  useUnsaved.setState({ pendingView: target });
  return false;
}

/** Registers `label`'s unsaved edits while `dirty`, for as long as the calling component is on screen. */
export function useUnsavedGuard(key: string, label: string, dirty: boolean): void {
  useEffect(() => {
    useUnsaved.getState().setUnsaved(key, dirty ? label : undefined);
  }, [key, label, dirty]);
  useEffect(() => () => useUnsaved.getState().setUnsaved(key, undefined), [key]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
