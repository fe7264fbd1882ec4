/**
 * The Proxies view: every VM of every cluster in one virtualised table,
 * with search, filters, multi-select, a details drawer and the row actions
 * (issue 16: a menu per row, the toolbar on the selection, the drawer's bar;
 * actions/). Delete (the key, from a row, a row's checkbox or anywhere
 * outside a field) asks to delete the selection; Shift+S, Shift+X and
 * Shift+R start, stop and reboot the selection (or the focused row);
 * Ctrl+N opens Create proxy. The drawer is a side sheet that narrows the
 * table (a full panel on narrow windows).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EmptyState } from '../../components/common/EmptyState';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { focusIfLost, isDialogOpen } from '../../components/common/focusable';
import { SearchInput } from '../../components/common/SearchInput';
import { Toolbar } from '../../components/common/Toolbar';
import { useNow } from '../../format/clock';
import { useInventory } from '../../stores/inventory';
import { useConnection } from '../../stores/connection';
import { useUi } from '../../stores/ui';
import { CreateProxyDialog } from '../create/CreateProxyDialog';
import { NewProxyButton } from '../create/NewProxyButton';
import { useCreateDialog } from '../create/open-state';
import { useProxyFocus } from '../../stores/proxy-focus';
import { useSecretsNeeded } from '../../stores/secrets-needed';
import { ViewFrame } from '../Placeholder';
import { ActionDialogs, ActionNotice } from './actions/ActionDialogs';
import { ActionMenu } from './actions/ActionMenu';
import { useProxyActions } from './actions/action-store';
import { subjectOf } from './actions/action-subject';
import { SelectionActions } from './actions/SelectionActions';
import { useProfiles } from '../../stores/profiles';
import type { ProxyAction } from '../../../../shared/domain/proxy-actions';
import { Filters } from './Filters';
import { ExportDialogHost } from './exports/ExportDialog';
import { HandoffDialogHost } from './handoff/HandoffDialog';
import { ImportDialogHost } from './handoff/ImportDialog';
import { useHandoffDialog, useImportDialog } from './handoff/handoff-store';
import { useExportDialog } from './exports/export-store';
import { ProxyDrawer } from './ProxyDrawer';
import { ProxyTable, rowElement } from './ProxyTable';
import { filterRows, noFilter, sortedRowsOf, type ProxyRow, type RowFilter, type SortColumn, type SortOrder } from './rows';
import './proxies.css';

/** Typing in a field keeps Delete for the text; a checkbox (a row's) is not typing. */
function isTyping(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button'].includes(target.type);
  return target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName);
}

const keyActions: Record<string, ProxyAction> = { S: 'start', X: 'stop', R: 'reboot' };

/** Delete; Shift+S start, Shift+X stop (asks first), Shift+R reboot (asks first). */
function keyAction(e: KeyboardEvent): ProxyAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  if (e.key === 'Delete') return 'delete';
  return e.shiftKey ? keyActions[e.key.toUpperCase()] : undefined;
}

/** The key of the table row holding focus, if any (rows carry `data-key`). */
function focusedRowKey(target: EventTarget | null): string | undefined {
  return target instanceof HTMLElement ? (target.closest<HTMLElement>('[role="row"][data-key]')?.dataset.key ?? undefined) : undefined;
}

export function ProxiesView() {
  const clusters = useInventory((s) => s.clusters);
  const loaded = useInventory((s) => s.loaded);
  const error = useInventory((s) => s.error);
  const reload = useInventory((s) => s.reload);
  const createOpen = useCreateDialog((s) => s.open);
  const [filter, setFilter] = useState<RowFilter>(noFilter);
  const [order, setOrder] = useState<SortOrder>({ column: 'name', descending: false });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openKey, setOpenKey] = useState<string>();
  const ask = useProxyActions((s) => s.ask);
  // Ages tick with the one clock, in whole seconds: the keystrokes of one second keep every drawn row (memoised on
  // `now`) without recomputing its age text.
  const now = useNow();

  // Sorting is the costly part: it reruns only when the rows or the order change, not per keystroke.
  const sorted = useMemo(() => sortedRowsOf(clusters, order), [clusters, order]);
  const shown = useMemo(() => filterRows(sorted, filter), [sorted, filter]);
  const byKey = useMemo(() => new Map(sorted.map((r) => [r.key, r])), [sorted]);
  const selectedRows = useMemo(
    () => [...selected].map((k) => byKey.get(k)).filter((r): r is ProxyRow => r !== undefined),
    [selected, byKey],
  );
  const openRow = openKey ? byKey.get(openKey) : undefined;

  // A cluster waiting for its secret is not listed, not empty: the empty state says which.
  const waitingForSecret = useSecretsNeeded()
    .map((p) => p.name)
    .join(', ');

  useEffect(
    () => () => {
      useProxyActions.getState().reset();
      useExportDialog.getState().close();
      useHandoffDialog.getState().close();
      useImportDialog.getState().close();
    },
    [],
  );

  // "Open in Proxies" from another view (a task's proxy): select it and open its drawer once its row is listed.
  const focusKey = useProxyFocus((s) => s.key);
  useEffect(() => {
    if (!focusKey || !byKey.has(focusKey)) return;
    setFilter(noFilter);
    setSelected(new Set([focusKey]));
    setOpenKey(focusKey);
    useProxyFocus.getState().clear();
  }, [focusKey, byKey]);

  // A link from another view (the Overview's "3 running"): show the rows it asked for.
  const filterRequest = useUi((s) => s.proxiesFilter);
  useEffect(() => {
    if (!filterRequest) return;
    const { clusterId, state, node } = filterRequest;
    setFilter({ ...noFilter, clusterId, node, states: new Set(state ? [state] : []) });
    useUi.getState().clearProxiesFilter();
  }, [filterRequest]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The context-menu key or Shift+F10 on a row opens its Actions menu (beside its button).
      if ((e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) && !isDialogOpen()) {
        const key = focusedRowKey(e.target);
        const row = key ? byKey.get(key) : undefined;
        const button = row && rowElement(layoutRef.current, row.key)?.querySelector<HTMLElement>('.row-actions-button');
        if (!row || !button) return;
        e.preventDefault();
        useProxyActions.getState().openMenu(row, button);
        return;
      }
      const action = keyAction(e);
      if (!action || isDialogOpen() || isTyping(e.target) || useProxyActions.getState().menu) return;
      if (useConnection.getState().lostAt !== undefined) return;
      // The selection; else the row with focus (Shift+S on a focused row starts it); Delete stays on the selection.
      const inDrawer = e.target instanceof HTMLElement && e.target.closest('.drawer') !== null;
      const focused = action === 'delete' ? undefined : inDrawer ? openKey : focusedRowKey(e.target);
      const rows = selectedRows.length > 0 ? selectedRows : focused && byKey.get(focused) ? [byKey.get(focused)!] : [];
      if (rows.length === 0) return;
      e.preventDefault();
      const { clusters: all } = useInventory.getState();
      const profiles = useProfiles.getState().list?.profiles;
      ask(
        action,
        rows.map((r) => subjectOf(r, all, profiles)),
      );
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Stable callbacks, so the table's memoised rows are not all redrawn on every render.
  const toggle = useCallback(
    (r: ProxyRow) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(r.key)) next.delete(r.key);
        else next.add(r.key);
        return next;
      }),
    [],
  );
  const open = useCallback((r: ProxyRow) => setOpenKey(r.key), []);
  // Closing the drawer gives focus back to its row, so the keyboard carries on where it was
  // (unless something the user opened in that frame, the search say, has it already).
  const layoutRef = useRef<HTMLDivElement>(null);
  const closeDrawer = useCallback(() => {
    setOpenKey(undefined);
    if (openKey) requestAnimationFrame(() => focusIfLost(rowElement(layoutRef.current, openKey)));
  }, [openKey]);
  const sortBy = (column: SortColumn) => setOrder((o) => ({ column, descending: o.column === column ? !o.descending : false }));

  return (
    <ViewFrame title="Proxies">
      <Toolbar label="Proxy actions">
        <SearchInput label="Search proxies" value={filter.text} onChange={(text) => setFilter((f) => ({ ...f, text }))} />
        <Filters filter={filter} onChange={setFilter} clusters={clusters} />
        <span className="toolbar-gap" />
        <NewProxyButton />
      </Toolbar>
      <SelectionActions rows={selectedRows} />
      {error && <ErrorNotice error={error} title="The proxies could not be loaded" onRetry={() => void reload()} />}
      <ActionNotice />
      <p className="table-count" role="status" aria-label="Rows shown">
        {shown.length === sorted.length ? `${sorted.length} VMs` : `${shown.length} of ${sorted.length} VMs`}
        {selectedRows.length > 0 && `, ${selectedRows.length} selected`}
      </p>
      {!loaded && !error ? (
        <EmptyState title="Loading the proxies…" />
      ) : sorted.length === 0 && !error && waitingForSecret ? (
        <EmptyState title="Not listed: the token secret is needed">
          The proxies of {waitingForSecret} are listed once its token secret is entered (see the banner above).
        </EmptyState>
      ) : sorted.length === 0 && !error ? (
        <EmptyState title="No proxies yet" action={<NewProxyButton label="Create the first proxy" primary={false} />}>
          Proxies you create, and proxy VMs made by the Kubernetes operator, show up here.
        </EmptyState>
      ) : (
        <div ref={layoutRef} className={`proxies-layout${openRow ? ' with-drawer' : ''}`}>
          <ProxyTable
            rows={shown}
            order={order}
            onSort={sortBy}
            selected={selected}
            onToggle={toggle}
            onToggleAll={(on) =>
              setSelected(on ? new Set(shown.filter((r) => r.owner !== 'foreign' && r.name).map((r) => r.key)) : new Set())
            }
            openKey={openKey}
            onOpen={open}
            withCluster={clusters.length > 1}
            now={now}
          />
          {openRow && <ProxyDrawer row={openRow} onClose={closeDrawer} />}
        </div>
      )}
      <ActionMenu />
      <ActionDialogs onDeleted={() => setSelected(new Set())} />
      <ExportDialogHost />
      <HandoffDialogHost />
      <ImportDialogHost />
      {createOpen && <CreateProxyDialog />}
    </ViewFrame>
  );
}
