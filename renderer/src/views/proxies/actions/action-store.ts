/**
 * Issue 16: the Proxies view's one place for row actions. The row menu,
 * the selection toolbar, the drawer's action bar and the shortcuts all
 * `ask` here; ActionDialogs (rendered once by the view) shows the dialog
 * or confirmation the action needs, and ActionNotice the outcome. The one
 * open row menu lives here too, so a row only holds a small button.
 */
import { create } from 'zustand';
import { confirmsFirst, isPowerAction, splitByAction } from '../../../../../shared/domain/bulk-actions';
import type { ProxyAction } from '../../../../../shared/domain/proxy-actions';
import type { ProxyRow } from '../rows';
import { runPower, type ActionOutcome } from './run-actions';

export interface PendingAction {
  action: ProxyAction;
  /** The rows the action applies to. */
  rows: ProxyRow[];
  /** The rows left out, each with why. */
  skipped: { row: ProxyRow; reason: string }[];
  /** An operator-made VM is among `rows`: the dialog asks for an explicit acknowledgement. */
  needsAcknowledgement: boolean;
}

export interface OpenMenu {
  row: ProxyRow;
  /** The row's Actions button: the menu sits beside it and gives focus back to it. */
  anchor: HTMLElement;
}

interface ProxyActionsState {
  pending: PendingAction | undefined;
  menu: OpenMenu | undefined;
  /** The last action's outcome, with the rows it was for. */
  outcome: { result: ActionOutcome; rows: ProxyRow[] } | undefined;
  /** Start, shut down (no confirmation) run at once; every other action opens its dialog. */
  ask(action: ProxyAction, rows: readonly ProxyRow[]): void;
  /** Sends a power action now (after its confirmation, which took the acknowledgement when one was needed). */
  runPower(pending: PendingAction): Promise<void>;
  done(result: ActionOutcome, rows: ProxyRow[]): void;
  cancel(): void;
  openMenu(row: ProxyRow, anchor: HTMLElement): void;
  closeMenu(): void;
  dismissOutcome(): void;
  /** Leaving the view: no menu, dialog or notice is kept for later. */
  reset(): void;
}

export const useProxyActions = create<ProxyActionsState>((set, get) => ({
  pending: undefined,
  menu: undefined,
  outcome: undefined,

  ask(action, rows) {
    const split = splitByAction(rows, action);
    if (split.apply.length === 0) return;
    const pending: PendingAction = {
      action,
      rows: split.apply,
      skipped: split.skip.map((s) => ({ row: s.item, reason: s.reason })),
      needsAcknowledgement: split.needsAcknowledgement,
    };
    set({ menu: undefined });
    if (isPowerAction(action) && !confirmsFirst(action, split.apply)) void get().runPower(pending);
    else set({ pending });
  },

  async runPower(pending) {
    if (!isPowerAction(pending.action)) return;
    set({ pending: undefined });
    get().done(await runPower(pending.action, pending.rows, pending.needsAcknowledgement), pending.rows);
  },

  done: (result, rows) => set({ pending: undefined, outcome: { result, rows } }),
  cancel: () => set({ pending: undefined }),
  openMenu: (row, anchor) => set({ menu: { row, anchor } }),
  closeMenu: () => set({ menu: undefined }),
  dismissOutcome: () => set({ outcome: undefined }),
  reset: () => set({ pending: undefined, menu: undefined, outcome: undefined }),
}));
