/**
 * Keyboard help for the whole app: a skip link (the page's first focusable
 * element, shown when focused) that jumps over the navigation to the main
 * content, and `?` (outside a field) opening a dialog listing every shortcut.
 * The list is kept beside the handlers it describes: App.tsx (Ctrl+number), search/CommandPalette.tsx (Ctrl+K),
 * create/open-state.ts (Ctrl+N), SearchInput (Ctrl+F, /, Escape), Dialog
 * (Escape, Tab), the Proxies grid and view (arrows, Space, Enter, Delete, Shift+S/X/R:
 * ProxiesView.tsx keyAction) and a row's Actions menu (proxies/actions/ActionMenu.tsx).
 */
import { useEffect, useState } from 'react';
import { views } from '../stores/ui';
import { Dialog } from './common/Dialog';
import { isDialogOpen } from './common/focusable';
import './shortcuts.css';

export const MAIN_CONTENT_ID = 'main-content';

export interface Shortcut {
  keys: string[];
  does: string;
}

export const shortcutGroups: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      ...views.map((v, i) => ({ keys: [`Ctrl+${i + 1}`], does: `Go to ${v.label}` })),
      { keys: ['Ctrl+K'], does: 'Search proxies, nodes, templates and tasks, from any view' },
      { keys: ['Ctrl+N'], does: 'Create a proxy' },
      { keys: ['Ctrl+F', '/'], does: "Search the view's list (Proxies, Tasks and the other tables)" },
      { keys: ['?'], does: 'Show this list of shortcuts' },
      { keys: ['Tab'], does: 'From the top of the page: the “Skip to main content” link' },
    ],
  },
  {
    title: 'Search (Ctrl+K)',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Previous or next result' },
      { keys: ['Enter'], does: 'Open it: the proxy’s details, the node, the template’s catalogue, the task' },
      { keys: ['Escape'], does: 'Close the search' },
    ],
  },
  {
    title: 'Search box',
    shortcuts: [{ keys: ['Escape'], does: 'Clear the search' }],
  },
  {
    title: 'Proxies table',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Previous or next proxy' },
      { keys: ['Home', 'End'], does: 'First or last proxy' },
      { keys: ['Page Up', 'Page Down'], does: 'One screen up or down' },
      { keys: ['Space'], does: 'Select or unselect the proxy' },
      { keys: ['Enter'], does: 'Open its details' },
      { keys: ['Delete'], does: 'Delete the selected proxies (asks first; Enter confirms)' },
      { keys: ['Shift+F10', 'Menu'], does: 'Open the Actions menu of the proxy with focus (Tab from the row reaches its button too)' },
      { keys: ['Shift+S'], does: 'Start the selected proxies (or the one with focus)' },
      { keys: ['Shift+X'], does: 'Stop the selected proxies, hard (asks first)' },
      { keys: ['Shift+R'], does: 'Reboot the selected proxies (asks first)' },
      { keys: ['Escape'], does: 'Close the details' },
    ],
  },
  {
    title: 'A row’s Actions menu',
    shortcuts: [
      { keys: ['↑', '↓'], does: 'Previous or next action (a greyed one says why it does not apply)' },
      { keys: ['Home', 'End'], does: 'First or last action' },
      { keys: ['Enter', 'Space'], does: 'Run the action (or open its dialog)' },
      { keys: ['Escape', 'Tab'], does: 'Close the menu; focus goes back to its button' },
    ],
  },
  {
    title: 'Dialogs',
    shortcuts: [
      { keys: ['Tab', 'Shift+Tab'], does: 'Move between the fields (focus stays in the dialog)' },
      { keys: ['Escape'], does: 'Close the dialog' },
    ],
  },
];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button'].includes(target.type);
  return target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function SkipLink() {
  return (
    <a
      className="skip-link"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      Skip to main content
    </a>
  );
}

export function ShortcutHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || isDialogOpen()) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  return (
    <Dialog title="Keyboard shortcuts" onClose={() => setOpen(false)}>
      {shortcutGroups.map((g) => (
        <section key={g.title} className="shortcut-group" aria-label={g.title}>
          <h3>{g.title}</h3>
          <dl className="facts">
            {g.shortcuts.map((s) => (
              <div key={s.keys.join() + s.does} className="shortcut">
                <dt>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' or '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{s.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
