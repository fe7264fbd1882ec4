/** Finding what Tab can reach inside a container, for the dialog's focus trap. */

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

export function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusableSelector)].filter((el) => !el.closest('[hidden],[inert]'));
}

/** The open dialogs, the last opened on top. */
const openDialogs: object[] = [];

/** Global shortcuts (new proxy, delete) stay quiet while a dialog is open. */
export function isDialogOpen(): boolean {
  return openDialogs.length > 0;
}

/** A dialog opened: `isTop` says whether it is the one over all others; the returned `untrack` when it closes. */
export function trackDialog(): { isTop: () => boolean; untrack: () => void } {
  const token = {};
  openDialogs.push(token);
  return {
    isTop: () => openDialogs[openDialogs.length - 1] === token,
    untrack: () => {
      const at = openDialogs.indexOf(token);
      if (at >= 0) openDialogs.splice(at, 1);
    },
  };
}

/**
 * Gives focus back to el only if focus went nowhere meanwhile (the body): a
 * later frame must not take it from a dialog or field the user opened since
 * (Escape on the drawer, then Ctrl+K at once, typed into the grid).
 */
export function focusIfLost(el: HTMLElement | null | undefined): void {
  const now = document.activeElement;
  if (el && (now === null || now === document.body)) el.focus({ preventScroll: true });
}
