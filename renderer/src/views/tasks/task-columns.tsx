/**
 * The columns of a task row, shared by the Tasks view's table and the
 * shell's task panel: what it did to what, its state, its cluster (or that
 * the cluster was removed), node, absolute start time and duration.
 */
import type { TaskView } from '../../../../shared/channels/tasks';
import { ProgressBar } from '../../components/common/ProgressBar';
import { StateBadge } from '../../components/common/StateBadge';
import type { DataColumn } from '../../components/common/DataTable';
import { formatDateTime, formatDuration } from '../../format';
import { useProfiles } from '../../stores/profiles';
import { currentStep, kindLabel, progressTone } from './words';

export const isLive = (t: TaskView) => t.state === 'running' || t.state === 'queued';
export const taskName = (t: TaskView) => `${kindLabel[t.kind]} ${t.target}`;
const startOf = (t: TaskView) => t.startedAt ?? t.createdAt;

/** Seconds the task ran (so far, while it runs); undefined before it starts. */
export function durationOf(t: TaskView, now: number): number | undefined {
  if (!t.startedAt && t.state === 'queued') return undefined;
  const start = Date.parse(startOf(t));
  const end = t.endedAt ? Date.parse(t.endedAt) : isLive(t) ? now : undefined;
  return end === undefined || Number.isNaN(start) ? undefined : Math.max(0, (end - start) / 1000);
}

export interface ClusterWords {
  name: string;
  removed: boolean;
}

/** A cluster id in words: its name, or "cluster removed" once the list of clusters no longer has it. */
export function useClusterWords(): (clusterId: string) => ClusterWords {
  const list = useProfiles((s) => s.list);
  return (clusterId) => {
    const profile = list?.profiles.find((p) => p.id === clusterId);
    if (profile) return { name: profile.name, removed: false };
    return list ? { name: 'cluster removed', removed: true } : { name: clusterId, removed: false };
  };
}

export interface TaskColumnOptions {
  now: number;
  cluster: (clusterId: string) => ClusterWords;
  /** With it, the task's name is a button that opens the task. */
  onOpen?: (t: TaskView) => void;
}

export function taskColumns({ now, cluster, onOpen }: TaskColumnOptions) {
  const columns = {
    task: {
      id: 'task',
      header: 'Task',
      rowHeader: true,
      sortValue: taskName,
      cell: (t, { depth }) => (
        <>
          {depth > 0 && (
            <span className="muted" aria-hidden="true">
              ↳{' '}
            </span>
          )}
          {onOpen ? (
            <button type="button" className="link-button" onClick={() => onOpen(t)}>
              {taskName(t)}
            </button>
          ) : (
            taskName(t)
          )}
        </>
      ),
    },
    state: { id: 'state', header: 'State', sortValue: (t) => t.state, cell: (t) => <StateBadge state={t.state} /> },
    cluster: {
      id: 'cluster',
      header: 'Cluster',
      priority: 2,
      sortValue: (t) => cluster(t.clusterId).name,
      cell: (t) => {
        const c = cluster(t.clusterId);
        return c.removed ? <span className="muted">{c.name}</span> : c.name;
      },
    },
    node: { id: 'node', header: 'Node', priority: 3, sortValue: (t) => t.node, cell: (t) => t.node ?? '—' },
    started: {
      id: 'started',
      header: 'Started',
      compare: (a, b) => Date.parse(startOf(a)) - Date.parse(startOf(b)),
      cell: (t) => <time dateTime={startOf(t)}>{formatDateTime(startOf(t))}</time>,
    },
    duration: {
      id: 'duration',
      header: 'Duration',
      align: 'end',
      sortValue: (t) => durationOf(t, now),
      cell: (t) => formatDuration(durationOf(t, now)),
    },
    progress: {
      id: 'progress',
      header: 'Progress',
      width: '22%',
      priority: 2,
      sortValue: (t) => t.progress,
      cell: (t) => (
        <ProgressBar
          label={`Progress of ${t.target}`}
          value={t.progress * 100}
          detail={currentStep(t)}
          tone={progressTone(t.state, t.address)}
        />
      ),
    },
  } satisfies Record<string, DataColumn<TaskView>>;
  return columns;
}
