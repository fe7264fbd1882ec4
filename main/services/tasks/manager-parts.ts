/**
 * What the task manager's parts share: the store, how a task record is
 * made, queued, changed and ended, and the cluster a task was made for.
 * task-manager.ts builds it once (createManagerParts) and hands it to each
 * part; startTask is the one way a new task is journalled and queued.
 */
import { randomUUID } from 'node:crypto';
import type { TaskKind } from '../../../shared/channels/tasks';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';
import type { NameGuard } from './runners/run-context';
import { freshSteps } from './records/steps';
import type { TaskInput, TaskRecord } from './records/task-record';
import type { TaskStore } from './records/task-store';

export interface ManagerParts {
  store: TaskStore;
  directory: ClusterDirectory;
  log: Logger;
  now(): Date;
  names: NameGuard;
  /** The task, or a not-found AppError in words. */
  mustGet(id: string): TaskRecord;
  /** A fresh record of `kind`, queued, with its kind's steps; not stored yet. */
  newRecord(kind: TaskKind, clusterId: string, target: string, input: TaskInput, extra?: Partial<TaskRecord>): TaskRecord;
  /** Journals a new task, then queues it. */
  submit(task: TaskRecord): void;
  /** Queues a stored task (again). */
  schedule(id: string): void;
  /** Keeps the parent, the notification and the taskbar in step after a change. */
  afterChange(task: TaskRecord): void;
  /** Ends a task with these fields (endedAt set), then prunes the history. */
  finish(id: string, fields: Partial<TaskRecord>): void;
  /** The cluster a task was made for, or a not-found AppError saying it was removed. */
  clusterOf(task: { clusterId: string }): Cluster;
}

/** The parts' shared pieces; the queue's and the events' functions are handed in, as they are built over the parts. */
export function createManagerParts(d: {
  store: TaskStore;
  directory: ClusterDirectory;
  log: Logger;
  now: () => Date;
  names: NameGuard;
  stepsOf: (kind: TaskKind) => readonly string[];
  submit: ManagerParts['submit'];
  schedule: ManagerParts['schedule'];
  afterChange: ManagerParts['afterChange'];
  finish: ManagerParts['finish'];
}): ManagerParts {
  const { store, directory, now } = d;
  return {
    store,
    directory,
    log: d.log,
    now,
    names: d.names,
    mustGet(id) {
      const task = store.get(id);
      if (!task)
        throw new AppError(
          'not-found',
          `There is no task with id "${id}".`,
          'Refresh the task list; it may have been dropped from the history.',
        );
      return task;
    },
    newRecord: (kind, clusterId, target, input, extra = {}) => ({
      id: randomUUID(),
      kind,
      clusterId,
      target,
      state: 'queued',
      progress: 0,
      steps: freshSteps(d.stepsOf(kind)),
      upids: [],
      createdAt: now().toISOString(),
      attempts: 0,
      input,
      ...extra,
    }),
    submit: d.submit,
    schedule: d.schedule,
    afterChange: d.afterChange,
    finish: d.finish,
    clusterOf(task) {
      // A task outlives its cluster; a removed one is said in words, not as an unknown id.
      try {
        return directory.get(task.clusterId);
      } catch (e) {
        if (!(e instanceof AppError && e.kind === 'not-found')) throw e;
        throw new AppError(
          'not-found',
          'Cluster removed: the cluster this task ran on is no longer in Egress Desk, so Proxmox cannot be asked about it.',
          'Its record stays here to read; add the cluster again in Settings to act on it.',
        );
      }
    },
  };
}

/** A new task of `kind` on a known cluster (an unknown one is refused before any record): journalled, then queued. */
export function startTask(
  parts: ManagerParts,
  kind: TaskKind,
  clusterId: string,
  target: string,
  input: TaskInput,
  extra: Partial<TaskRecord> = {},
): { taskId: string } {
  parts.directory.get(clusterId);
  const task = parts.newRecord(kind, clusterId, target, input, extra);
  parts.submit(task);
  return { taskId: task.id };
}
