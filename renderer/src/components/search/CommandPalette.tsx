/**
 * "Search from anywhere": Ctrl+K (⌘K) opens a dialog with one combobox over
 * the proxies, nodes, templates and tasks the stores hold (search-items.ts).
 * Typing filters, ↑/↓ move through the results, Enter opens the one shown
 * active (a proxy's drawer, a node's page, the template's cluster in
 * Templates, a task's details), Escape closes. Screen readers hear it as a
 * combobox whose listbox's active option follows the arrows, and the count
 * of results as a polite status.
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { Dialog } from '../common/Dialog';
import { isDialogOpen } from '../common/focusable';
import { useInventory } from '../../stores/inventory';
import { clustersOf, useProfiles } from '../../stores/profiles';
import { useProxyFocus } from '../../stores/proxy-focus';
import { useTasks } from '../../stores/tasks';
import { useUi } from '../../stores/ui';
import { kindWord, matchItems, searchItems, type SearchTarget } from './search-items';
import './search.css';

/** Shows what the target names, in its own view. */
export function openTarget(target: SearchTarget): void {
  const ui = useUi.getState();
  switch (target.kind) {
    case 'proxy':
      useProxyFocus.getState().focus(target.clusterId, target.vmid);
      ui.setView('proxies');
      return;
    case 'node':
      ui.openNode({ clusterId: target.clusterId, node: target.node });
      return;
    case 'template':
      ui.openTemplates({ clusterId: target.clusterId });
      return;
    case 'task':
      useTasks.getState().select(target.id);
      ui.setView('tasks');
  }
}

function Palette({ onClose }: { onClose: () => void }) {
  const clusters = useInventory((s) => s.clusters);
  const list = useProfiles((s) => s.list);
  const tasks = useTasks((s) => s.tasks);
  const items = useMemo(() => searchItems(clusters, clustersOf(list), Object.values(tasks)), [clusters, list, tasks]);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const results = useMemo(() => matchItems(items, query), [items, query]);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;
  const current = Math.min(active, results.length - 1);

  const choose = (i: number) => {
    const item = results[i];
    if (!item) return;
    onClose();
    openTarget(item.target);
  };
  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView?.({ block: 'nearest' });
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = results.length - 1;
    // Home and End stay the field's own (the caret), as in any text field.
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1 };
    if (e.key in moves && last >= 0) {
      e.preventDefault();
      setActive(Math.max(0, Math.min(last, moves[e.key]!)));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(current);
    }
  };

  return (
    <Dialog title="Search" onClose={onClose} size="wide">
      <input
        data-autofocus
        className="search-palette-input"
        type="text"
        role="combobox"
        aria-label="Search proxies, nodes, templates and tasks"
        aria-autocomplete="list"
        aria-expanded={results.length > 0}
        aria-controls={listId}
        aria-activedescendant={results.length > 0 ? optionId(current) : undefined}
        placeholder="Proxy, node, template or task…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        autoComplete="off"
        spellCheck={false}
      />
      <p className="muted search-palette-count" role="status" aria-label="Search results">
        {results.length === 0
          ? 'Nothing matches.'
          : `${results.length} result${results.length === 1 ? '' : 's'}: ↑ ↓ to move, Enter to open.`}
      </p>
      <ul id={listId} role="listbox" aria-label="Results" className="search-palette-list">
        {results.map((item, i) => (
          <li
            key={item.key}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            className={i === current ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(i)}
          >
            <span className={`search-kind kind-${item.kind}`}>{kindWord[item.kind]}</span>
            <span className="search-label">{item.label}</span>
            <span className="search-detail muted" title={item.detail}>
              {item.detail}
            </span>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

/** Ctrl+K (⌘K) anywhere opens the search, unless a dialog is open. */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'k') return;
      // Inside a dialog the key stays the dialog's own (the YAML editor's, say).
      if (isDialogOpen()) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return open ? <Palette onClose={() => setOpen(false)} /> : null;
}
