/**
 * The Tasks view: every task in one dense table (the proxies of a bulk
 * create under their parent), filtered by state, cluster and kind, with
 * absolute start times and durations; the chosen row in full below, with
 * its Proxmox log. The choice is kept in the tasks store, so leaving the
 * view and coming back (or arriving from the task panel) shows that task.
 */
import { useState } from 'react';
import type { TaskView } from '../../../../shared/channels/tasks';
import { DataTable } from '../../components/common/DataTable';
import { EmptyState } from '../../components/common/EmptyState';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Toolbar } from '../../components/common/Toolbar';
import { sortedTasks, useTasks } from '../../stores/tasks';
import { openCreateProxy } from '../create/open-state';
import { ViewFrame } from '../Placeholder';
import { TaskDetails } from './TaskDetails';
import { useNow } from '../../format/clock';
import { isLive, taskColumns, useClusterWords } from './task-columns';
import { kindLabel } from './words';
import './tasks.css';

const stateChoices = {
  all: { label: 'All states', test: () => true },
  live: { label: 'Running or queued', test: isLive },
  failed: { label: 'Failed', test: (t: TaskView) => t.state === 'failed' },
  interrupted: { label: 'Interrupted', test: (t: TaskView) => t.state === 'interrupted' },
  cancelled: { label: 'Cancelled', test: (t: TaskView) => t.state === 'cancelled' },
  succeeded: { label: 'Succeeded', test: (t: TaskView) => t.state === 'succeeded' },
} as const;
type StateChoice = keyof typeof stateChoices;

const ALL = '';

export function TasksView() {
  const tasks = useTasks((s) => s.tasks);
  const loaded = useTasks((s) => s.loaded);
  const error = useTasks((s) => s.error);
  const notices = useTasks((s) => s.notices);
  const reload = useTasks((s) => s.reload);
  const selectedId = useTasks((s) => s.selectedId);
  const select = useTasks((s) => s.select);
  const cluster = useClusterWords();
  const [stateFilter, setStateFilter] = useState<StateChoice>('all');
  const [clusterFilter, setClusterFilter] = useState(ALL);
  const [kindFilter, setKindFilter] = useState(ALL);

  const all = sortedTasks(tasks);
  // Children of a bulk create are listed under their parent, not on their own.
  const top = all.filter((t) => !t.parentId || !tasks[t.parentId]);
  const childrenOf = (t: TaskView) => (t.childIds ?? []).flatMap((id) => (tasks[id] ? [tasks[id]] : []));
  const matches = (t: TaskView) =>
    stateChoices[stateFilter].test(t) &&
    (!clusterFilter || t.clusterId === clusterFilter) &&
    (!kindFilter || kindLabel[t.kind] === kindFilter);
  const rows = top.filter((t) => matches(t) || childrenOf(t).some(matches));
  const selected = (selectedId ? tasks[selectedId] : undefined) ?? rows[0];
  const now = useNow(all.some(isLive));
  const columns = taskColumns({ now, cluster, onOpen: (t) => select(t.id) });
  const filtered = stateFilter !== 'all' || clusterFilter !== ALL || kindFilter !== ALL;
  const clusterIds = [...new Set(all.map((t) => t.clusterId))];
  const kinds = [...new Set(all.map((t) => kindLabel[t.kind]))].sort();

  return (
    <ViewFrame title="Tasks">
      {error && <ErrorNotice error={error} title="The tasks could not be loaded" onRetry={() => void reload()} />}
      {notices.length > 0 && (
        <div className="notice warn-notice" role="status" aria-label="Data folder notices">
          <strong>The data folder needs attention</strong>
          <ul>
            {notices.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </div>
      )}
      {loaded && top.length === 0 ? (
        <EmptyState
          title="No tasks yet"
          action={
            <button type="button" onClick={openCreateProxy}>
              Create a proxy
            </button>
          }
        >
          Creating, deleting and cleaning up run as tasks; they show here with their steps and the Proxmox log.
        </EmptyState>
      ) : (
        <div className="tasks-layout">
          <Toolbar label="Task filters">
            <label className="inline-label">
              State
              <select value={stateFilter} onChange={(e) => setStateFilter(e.target.value as StateChoice)}>
                {Object.entries(stateChoices).map(([value, c]) => (
                  <option key={value} value={value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline-label">
              Cluster
              <select value={clusterFilter} onChange={(e) => setClusterFilter(e.target.value)}>
                <option value={ALL}>All clusters</option>
                {clusterIds.map((id) => (
                  <option key={id} value={id}>
                    {cluster(id).removed ? `${id} (cluster removed)` : cluster(id).name}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline-label">
              Kind
              <select value={kindFilter} onChange={(e) => setKindFilter(e.target.value)}>
                <option value={ALL}>All kinds</option>
                {kinds.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted" role="status" aria-label="Tasks shown">
              {rows.length} of {top.length} {top.length === 1 ? 'task' : 'tasks'}
            </span>
          </Toolbar>
          <div className="tasks-table">
            <DataTable
              label="Tasks"
              columns={[columns.task, columns.state, columns.progress, columns.cluster, columns.node, columns.started, columns.duration]}
              rows={rows}
              rowKey={(t) => t.id}
              subRows={(t) => childrenOf(t).filter((c) => !filtered || matches(c))}
              onActivate={(t) => select(t.id)}
              currentKey={selected?.id}
              empty={
                <EmptyState
                  title="No task matches these filters"
                  action={
                    <button
                      type="button"
                      onClick={() => {
                        setStateFilter('all');
                        setClusterFilter(ALL);
                        setKindFilter(ALL);
                      }}
                    >
                      Show every task
                    </button>
                  }
                />
              }
            />
          </div>
          {selected && <TaskDetails key={selected.id} task={selected} />}
        </div>
      )}
    </ViewFrame>
  );
}
