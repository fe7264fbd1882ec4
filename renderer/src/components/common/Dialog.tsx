/**
 * A modal dialog: labelled by its title, keeps Tab inside itself, closes on
 * Escape, and gives focus back to whatever had it before it opened.
 * `useCloseGuard` makes closing a dialog with unsaved edits ask first.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { focusableIn, trackDialog } from './focusable';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom. */
  footer?: ReactNode;
  /** Wider dialogs for wizards. */
  size?: 'normal' | 'wide';
}

/**
 * Whether the body scrolls with nothing in it that Tab reaches: then the
 * body itself takes focus, so the keyboard can scroll it (WCAG 2.1.1).
 */
function useScrollableWithoutFocus(body: RefObject<HTMLDivElement | null>): boolean {
  const [needs, setNeeds] = useState(false);
  // After every render (the content may have changed) and when the body is resized.
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const check = () => {
      const scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      setNeeds(scrolls && focusableIn(el).every((f) => f === el));
    };
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  });
  return needs;
}

export function Dialog({ title, onClose, children, footer, size = 'normal' }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const bodyNeedsFocus = useScrollableWithoutFocus(body);

  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { isTop, untrack } = trackDialog();
    const box = ref.current;
    if (box) {
      const preferred = box.querySelector<HTMLElement>('[data-autofocus]');
      (preferred ?? focusableIn(box)[0] ?? box).focus();
    }
    // Focus falls to the page when the element that had it goes (a button that hides once clicked, a list that
    // re-renders): the top dialog still takes Escape and Tab then, so the keyboard never loses it.
    const stray = (e: globalThis.KeyboardEvent) => {
      if (!isTop() || !box || box.contains(document.activeElement)) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        closeRef.current();
      } else if (e.key === 'Tab') {
        e.preventDefault();
        (focusableIn(box)[0] ?? box).focus();
      }
    };
    document.addEventListener('keydown', stray);
    return () => {
      document.removeEventListener('keydown', stray);
      untrack();
      if (before?.isConnected) before.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Stop here so a dialog opened over another closes alone.
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    e.stopPropagation();
    const items = focusableIn(ref.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (e.shiftKey && (active === first || !ref.current.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !ref.current.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="dialog-backdrop">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`dialog dialog-${size}`}
        onKeyDown={onKeyDown}
      >
        {/* Divs, not <header>/<footer>: outside a sectioning element those are the page's banner and contentinfo
            landmarks, and the page has its own (the status bar). */}
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <div ref={body} className="dialog-body" {...(bodyNeedsFocus ? { tabIndex: 0, role: 'region', 'aria-labelledby': titleId } : {})}>
          {children}
        </div>
        {footer && <div className="dialog-footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}

export interface CloseGuard {
  /** Ask only while this holds (the dialog has edits that closing would lose). */
  when: boolean;
  /** The question, e.g. "Discard this proxy?". */
  title: string;
  /** What would be lost. */
  message: ReactNode;
  /** The button that closes anyway, e.g. "Discard". */
  discardLabel: string;
  keepLabel?: string;
}

/**
 * Closing that asks first while `guard.when`: route every way out (Cancel,
 * Escape, the ×) through `requestClose` (pass it as the dialog's `onClose`)
 * and render `question`. "Keep editing" has focus first, so a stray Enter
 * loses nothing.
 */
export function useCloseGuard(onClose: () => void, guard: CloseGuard): { requestClose: () => void; question: ReactNode } {
  const [asking, setAsking] = useState(false);
  const requestClose = () => {
    if (guard.when) setAsking(true);
    else onClose();
  };
  const question = asking ? (
    <Dialog
      title={guard.title}
      onClose={() => setAsking(false)}
      footer={
        <>
          <button type="button" data-autofocus onClick={() => setAsking(false)}>
            {guard.keepLabel ?? 'Keep editing'}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => {
              setAsking(false);
              onClose();
            }}
          >
            {guard.discardLabel}
          </button>
        </>
      }
    >
      {guard.message}
    </Dialog>
  ) : null;
  return { requestClose, question };
}
