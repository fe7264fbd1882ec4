/**
 * The details of one VM beside the table: first the address to copy and the
 * Test action, then its actions (issue 16: the action bar, the same as the row menu), then its scheduled checks
 * (history and off switch), then its configuration as listed, Proxmox's history graphs (RrdGraphs), the proxy mark, its seed
 * (from the last cleanup scan) and the tasks that touched it. Escape closes it.
 */
import { useEffect, useRef } from 'react';
import { isDialogOpen } from '../../components/common/focusable';
import { StateBadge } from '../../components/common/StateBadge';
import { formatBytes } from '../../format';
import { DateTime, RelativeTime } from '../../components/common/Time';
import { useCleanup } from '../../stores/cleanup';
import { sortedTasks, useTasks } from '../../stores/tasks';
import { useUi } from '../../stores/ui';
import { kindLabel } from '../tasks/words';
import { ownerLabel, type ProxyRow } from './rows';
import { ActionBar } from './actions/ActionBar';
import { RrdGraphs } from '../../components/common/RrdGraphs';
import { ProxyTest } from './ProxyTest';
import { CheckHistorySection } from './CheckHistorySection';
import { NotesSection } from './NotesSection';
import { ClusterTasksSection } from './ClusterTasksSection';
import { SnapshotsSection } from './SnapshotsSection';

function SeedFacts({ row }: { row: ProxyRow }) {
  const report = useCleanup((s) => (s.clusterId === row.clusterId ? s.report : undefined));
  const setCluster = useCleanup((s) => s.setCluster);
  const scan = useCleanup((s) => s.scan);
  const scanning = useCleanup((s) => s.scanning);
  const seed = report && [...report.kept, ...report.orphans].find((s) => s.name === row.name && s.node === row.node);
  if (seed)
    return (
      <dl className="facts">
        <dt>Volume</dt>
        <dd className="mono">{seed.volid}</dd>
        <dt>Size</dt>
        <dd>{formatBytes(seed.sizeBytes)}</dd>
        <dt>Status</dt>
        <dd>{seed.reason}</dd>
      </dl>
    );
  return (
    <p>
      {report ? 'No seed of this name was found on its node in the last scan.' : 'Seeds are read by a cleanup scan.'}{' '}
      <button
        type="button"
        disabled={scanning}
        onClick={() => {
          setCluster(row.clusterId);
          void scan();
        }}
      >
        {scanning ? 'Scanning…' : 'Scan seeds'}
      </button>
    </p>
  );
}

function TasksOf({ row }: { row: ProxyRow }) {
  const tasks = useTasks((s) => s.tasks);
  const setView = useUi((s) => s.setView);
  const select = useTasks((s) => s.select);
  const touched = sortedTasks(tasks).filter(
    (t) => t.clusterId === row.clusterId && (t.vmid === row.vmid || (row.name !== undefined && t.target === row.name)),
  );
  if (touched.length === 0) return <p>No task of this app session touched it.</p>;
  return (
    <ul className="plain-list">
      {touched.map((t) => (
        <li key={t.id}>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              select(t.id);
              setView('tasks');
            }}
          >
            {kindLabel[t.kind]} {t.target}
          </button>{' '}
          <StateBadge state={t.state} /> <RelativeTime at={t.createdAt} />
        </li>
      ))}
    </ul>
  );
}

export function ProxyDrawer({ row, onClose }: { row: ProxyRow; onClose: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [row.key]);
  // Escape closes it while focus is inside, or nowhere in particular (a button that just became disabled lets focus fall to the body).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || isDialogOpen()) return;
      if (e.target === document.body || (e.target instanceof Node && ref.current?.contains(e.target))) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const owner = ownerLabel(row);
  return (
    <aside ref={ref} tabIndex={-1} className="drawer" aria-label={`Details of ${row.name ?? `VM ${row.vmid}`}`}>
      <header className="drawer-header">
        <h2>{row.name ?? `VM ${row.vmid}`}</h2>
        <button type="button" className="icon-button" aria-label="Close details" onClick={onClose}>
          ×
        </button>
      </header>
      <ProxyTest row={row} />
      <ActionBar row={row} />
      <CheckHistorySection row={row} />
      <section className="drawer-section" aria-label="Configuration">
        <h3>Configuration</h3>
        <dl className="facts">
          <dt>Cluster</dt>
          <dd>{row.clusterName}</dd>
          <dt>Node</dt>
          <dd>{row.node}</dd>
          <dt>VMID</dt>
          <dd>{row.vmid}</dd>
          <dt>State</dt>
          <dd>
            <StateBadge state={row.state} /> (Proxmox says “{row.status}”{row.lock ? `, locked: ${row.lock}` : ''})
          </dd>
          {row.template && (
            <>
              <dt>Template</dt>
              <dd>{row.template}</dd>
            </>
          )}
          {row.machineType && (
            <>
              <dt>Machine type</dt>
              <dd>{row.machineType}</dd>
            </>
          )}
          <dt>CPU and memory</dt>
          <dd>
            {row.cores ?? '?'} vCPU, {row.memoryMiB !== undefined ? formatBytes(row.memoryMiB * 1024 * 1024) : '?'}
          </dd>
          <dt>Started</dt>
          <dd>
            <RelativeTime at={row.startedAt} />
          </dd>
          <dt>Tags</dt>
          <dd>{row.tags.length ? row.tags.join(', ') : '—'}</dd>
        </dl>
      </section>
      <NotesSection row={row} />
      <SnapshotsSection row={row} />
      <RrdGraphs target={{ kind: 'vm', clusterId: row.clusterId, node: row.node, vmid: row.vmid }} />
      <section className="drawer-section" aria-label="Mark">
        <h3>The mark</h3>
        <p>
          <StateBadge state={owner.label} tone={owner.tone} /> {owner.title}
        </p>
        <dl className="facts">
          <dt>UID</dt>
          <dd className="mono">{row.uid ?? '—'}</dd>
          <dt>Created</dt>
          <dd>
            {row.createdAt ? (
              <>
                <RelativeTime at={row.createdAt} /> (<DateTime at={row.createdAt} />)
              </>
            ) : (
              '—'
            )}
          </dd>
        </dl>
      </section>
      <section className="drawer-section" aria-label="Seed">
        <h3>The seed</h3>
        <SeedFacts row={row} />
      </section>
      <section className="drawer-section" aria-label="Tasks">
        <h3>Tasks that touched it</h3>
        <TasksOf row={row} />
      </section>
      <ClusterTasksSection row={row} />
    </aside>
  );
}
