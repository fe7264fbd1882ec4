/**
 * What the task manager's parts share: the store, how a task record is
 * made, queued, changed and ended, and the cluster a task was made for.
 * task-manager.ts builds it once and hands it to each part.
 */
import type { TaskKind } from '../../../shared/channels/tasks';
import type { Logger } from '../../log/logger';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';
import type { NameGuard } from './run-context';
import type { TaskInput, TaskRecord } from './task-record';
import type { TaskStore } from './task-store';

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
