/**
 * The one row menu of the Proxies table (issue 16), opened by a row's
 * Actions button and rendered only while open, beside that button. Each
 * item is enabled by the shared rules (shared/domain/proxy-actions.ts); a
 * disabled one stays in the list, focusable, with its reason as visible
 * text, read as part of its name (and its title). Arrows, Home and End move; Enter
 * or Space runs; Escape or Tab closes and focus goes back to the button.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { actionApplicability, proxyActionLabel, proxyActions, type ProxyAction } from '../../../../../shared/domain/proxy-actions';
import { useActionsAvailable } from '../../../stores/connection';
import { useInventory } from '../../../stores/inventory';
import { useProfiles } from '../../../stores/profiles';
import { useProxyActions } from './action-store';
import { subjectOf } from './action-subject';

/** The actions that open a dialog before anything happens. */
const asksMore: ReadonlySet<ProxyAction> = new Set(['migrate', 'reconfigure', 'recreate', 'delete']);
export const menuLabel = (a: ProxyAction) => `${proxyActionLabel[a]}${asksMore.has(a) ? '…' : ''}`;

export function ActionMenu() {
  const menu = useProxyActions((s) => s.menu);
  if (!menu) return null;
  return <OpenActionMenu key={menu.row.key} />;
}

function OpenActionMenu() {
  const menu = useProxyActions((s) => s.menu)!;
  const closeMenu = useProxyActions((s) => s.closeMenu);
  const ask = useProxyActions((s) => s.ask);
  const clusters = useInventory((s) => s.clusters);
  const profiles = useProfiles((s) => s.list?.profiles);
  const available = useActionsAvailable();
  const ref = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ top: number; left: number }>();
  const subject = subjectOf(menu.row, clusters, profiles);
  const applies = actionApplicability(subject);
  const name = menu.row.name ?? `VM ${menu.row.vmid}`;

  // Beside the button, kept inside the window (it flips above the button near the bottom).
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const a = menu.anchor.getBoundingClientRect();
    const height = box.offsetHeight;
    const width = box.offsetWidth;
    const top = a.bottom + height > window.innerHeight ? Math.max(4, a.top - height) : a.bottom;
    const left = Math.max(4, Math.min(a.right - width, window.innerWidth - width - 4));
    setPlace({ top, left });
  }, [menu.anchor]);
  // Focus the first item once placed: a hidden element (before placing) cannot take focus.
  useEffect(() => {
    if (place) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [place !== undefined]);

  const close = (refocus: boolean) => {
    closeMenu();
    if (refocus && menu.anchor.isConnected) menu.anchor.focus();
  };
  // A click elsewhere closes it.
  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (e.target instanceof Node && !ref.current?.contains(e.target) && !menu.anchor.contains(e.target)) closeMenu();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [closeMenu, menu.anchor]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(items.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') close(true);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return createPortal(
    <div
      ref={ref}
      role="menu"
      aria-label={`Actions for ${name}`}
      className="action-menu"
      style={place ? { top: place.top, left: place.left } : { visibility: 'hidden', top: 0, left: 0 }}
      onKeyDown={onKeyDown}
    >
      {proxyActions.map((a) => {
        const verdict = applies[a];
        const reason = !available.enabled && a !== 'console' ? available.reason : verdict.reason;
        const enabled = verdict.enabled && (available.enabled || a === 'console');
        return (
          <button
            key={a}
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={`action-menu-item${a === 'stop' || a === 'delete' || a === 'recreate' ? ' danger-text' : ''}`}
            aria-disabled={enabled ? undefined : true}
            title={enabled ? undefined : reason}
            onClick={() => {
              if (!enabled) return;
              // Focus back on the row's button first: a dialog gives focus back to what had it when it opened.
              if (menu.anchor.isConnected) menu.anchor.focus();
              ask(a, [subject]);
            }}
          >
            <span className="action-menu-label">{menuLabel(a)}</span>
            {/* The reason is part of the item's name, as shown (WCAG 2.5.3): "Start It is already running." */}
            {!enabled && reason && (
              <>
                {' '}
                <span className="action-menu-why">{reason}</span>
              </>
            )}
          </button>
        );
      })}
    </div>,
    document.body,
  );
}
