/** What a task's runner gets from the manager: the cluster, a cancel signal, progress, and the name guard. */
import type { CloneGate, ProgressListener } from '../../../core';
import type { Logger } from '../../../log/logger';
import type { Cluster } from '../../clusters/cluster';
import type { TaskRecord } from '../records/task-record';

/** Which proxy names are in use by tasks, and the per-name lock the create, delete and cleanup tasks share. */
export interface NameGuard {
  /** The active task (other than `exceptId`) working on `name`, if any: running, queued, or interrupted and not yet resolved. */
  busy(clusterId: string, name: string, exceptId?: string): TaskRecord | undefined;
  lock(clusterId: string, name: string, signal: AbortSignal): Promise<() => void>;
}

export interface RunContext {
  /** The task as it was when this run started; `current()` reads it now. */
  task: TaskRecord;
  current(): TaskRecord;
  cluster: Cluster;
  signal: AbortSignal;
  /** Journals each step before its request; throws when the journal cannot record it, which stops the operation there. */
  onProgress: ProgressListener;
  /** Journals the fields (fsync'd) and tells the renderer; throws the journal's AppError (disk full, read-only) when it cannot. */
  update(fields: Partial<TaskRecord>): void;
  names: NameGuard;
  /** The task's user-data, its credential placeholders filled for the proxy (issue 24): for the core only, never journalled. */
  openCloudInit(): Promise<string>;
  /** The proxies' credentials, where the app keeps them (absent: none kept). */
  credentials?: { forget(uid: string): void; noteVmid(uid: string, vmid: number): void } | undefined;
  log: Logger;
  /** The cluster's per-storage clone slots, for a create to pass the core (CallOptions.cloneGate). */
  cloneGate?: CloneGate;
}

/** Resolves to the plain-words outcome shown on the task. */
export type Runner = (ctx: RunContext) => Promise<string>;

/** Runs `work` holding the proxy name's lock: a create, delete, power action and the seed cleanup never overlap on one name. */
export async function withName<T>(ctx: RunContext, name: string, work: () => Promise<T>): Promise<T> {
  const release = await ctx.names.lock(ctx.cluster.id, name, ctx.signal);
  try {
    return await work();
  } finally {
    release();
  }
}
