/**
 * The Proxies view: every VM of every cluster in one virtualised table,
 * with search, filters, multi-select, a details drawer and delete. Delete
 * (the key, from a row, a row's checkbox or anywhere outside a field) asks
 * to delete the selection; Ctrl+N opens Create proxy. The drawer is a side
 * sheet that narrows the table (a full panel on narrow windows).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EmptyState } from '../../components/common/EmptyState';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { isDialogOpen } from '../../components/common/focusable';
import { SearchInput } from '../../components/common/SearchInput';
import { Toolbar } from '../../components/common/Toolbar';
import { useInventory } from '../../stores/inventory';
import { useActionsAvailable, useConnection } from '../../stores/connection';
import { useUi } from '../../stores/ui';
import { CreateProxyDialog } from '../create/CreateProxyDialog';
import { NewProxyButton } from '../create/NewProxyButton';
import { useCreateDialog } from '../create/open-state';
import { useProxyFocus } from '../../stores/proxy-focus';
import { useSecretsNeeded } from '../../stores/secrets-needed';
import { ViewFrame } from '../Placeholder';
import { DeleteProxies, type DeleteOutcome } from './DeleteProxies';
import { Filters } from './Filters';
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

export function ProxiesView() {
  const clusters = useInventory((s) => s.clusters);
  const loaded = useInventory((s) => s.loaded);
  const error = useInventory((s) => s.error);
  const reload = useInventory((s) => s.reload);
  const createOpen = useCreateDialog((s) => s.open);
  const setView = useUi((s) => s.setView);
  const [filter, setFilter] = useState<RowFilter>(noFilter);
  const [order, setOrder] = useState<SortOrder>({ column: 'name', descending: false });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openKey, setOpenKey] = useState<string>();
  const [confirming, setConfirming] = useState<ProxyRow[]>();
  const actions = useActionsAvailable();
  const [outcome, setOutcome] = useState<DeleteOutcome>();
  // Ages show whole seconds: a clock in whole seconds lets the keystrokes of one second keep every drawn row (memoised
  // on `now`) without recomputing its age text.
  const now = Math.floor(Date.now() / 1000) * 1000;

  // Sorting is the costly part: it reruns only when the rows or the order change, not per keystroke.
  const sorted = useMemo(() => sortedRowsOf(clusters, order), [clusters, order]);
  const shown = useMemo(() => filterRows(sorted, filter), [sorted, filter]);
  const byKey = useMemo(() => new Map(sorted.map((r) => [r.key, r])), [sorted]);
  const selectedRows = [...selected].map((k) => byKey.get(k)).filter((r): r is ProxyRow => r !== undefined);
  const openRow = openKey ? byKey.get(openKey) : undefined;

  // A cluster waiting for its secret is not listed, not empty: the empty state says which.
  const waitingForSecret = useSecretsNeeded()
    .map((p) => p.name)
    .join(', ');

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
      if (e.key !== 'Delete' || isDialogOpen() || isTyping(e.target) || selectedRows.length === 0) return;
      if (useConnection.getState().lostAt !== undefined) return;
      e.preventDefault();
      setConfirming(selectedRows);
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
  // Closing the drawer gives focus back to its row, so the keyboard carries on where it was.
  const layoutRef = useRef<HTMLDivElement>(null);
  const closeDrawer = useCallback(() => {
    setOpenKey(undefined);
    if (openKey) requestAnimationFrame(() => rowElement(layoutRef.current, openKey)?.focus({ preventScroll: true }));
  }, [openKey]);
  const sortBy = (column: SortColumn) => setOrder((o) => ({ column, descending: o.column === column ? !o.descending : false }));

  return (
    <ViewFrame title="Proxies">
      <Toolbar label="Proxy actions">
        <SearchInput label="Search proxies" value={filter.text} onChange={(text) => setFilter((f) => ({ ...f, text }))} />
        <Filters filter={filter} onChange={setFilter} clusters={clusters} />
        <span className="toolbar-gap" />
        <NewProxyButton />
        <button
          type="button"
          className="danger"
          aria-keyshortcuts="Delete"
          disabled={selectedRows.length === 0 || !actions.enabled}
          title={actions.reason}
          onClick={() => setConfirming(selectedRows)}
        >
          Delete selected{selectedRows.length ? ` (${selectedRows.length})` : ''}
        </button>
      </Toolbar>
      {error && <ErrorNotice error={error} title="The proxies could not be loaded" onRetry={() => void reload()} />}
      {outcome && (
        <div className="notice" role="status">
          {outcome.started > 0 && (
            <>
              Started {outcome.started} delete {outcome.started === 1 ? 'task' : 'tasks'}.{' '}
              <button type="button" className="link-button" onClick={() => setView('tasks')}>
                Watch them in Tasks
              </button>
            </>
          )}
          {outcome.error && <ErrorNotice error={outcome.error} title="Some deletes did not start" />}
        </div>
      )}
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
      {confirming && (
        <DeleteProxies
          rows={confirming}
          onCancel={() => setConfirming(undefined)}
          onDone={(o) => {
            setConfirming(undefined);
            setOutcome(o);
            if (o.started > 0) setSelected(new Set());
          }}
        />
      )}
      {createOpen && <CreateProxyDialog />}
    </ViewFrame>
  );
}
