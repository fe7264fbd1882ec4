/**
 * The tasks in memory, mirrored to the journal on every change and pushed
 * to the renderer (a state change at once, progress at most every
 * `throttleMs` per task). Opening it turns every task the last run left
 * queued or running into `interrupted`, and keeps a bounded history.
 *
 * A change the journal cannot record (disk full, read-only folder) throws
 * the journal's AppError and is not made, so the work it was for stops before
 * its next request, and a new task is refused. Two kinds of change are made
 * in memory even then, so a task can always end and the app keeps running:
 * a task's end (nothing follows it that the journal must cover; the journal
 * still shows the task running, so the next start lists it as interrupted,
 * with Resume) and a bulk request's parent, whose state is its children's.
 */
import { isBulkParentKind, type TaskView } from '../../../../shared/channels/tasks';
import { AppError, internalErrorValue, toAppErrorValue } from '../../../errors/app-error';
import type { Logger } from '../../../log/logger';
import { Journal } from './journal';
import { finishedStates, type TaskRecord } from './task-record';
import { toView } from './task-view';

export interface StoreOptions {
  dir: string;
  log: Logger;
  historyLimit: number;
  throttleMs: number;
  now: () => Date;
  publish: (view: TaskView) => void;
}

export const INTERRUPTED_MESSAGE =
  'Egress Desk stopped while this task was running (a crash or a quit). Resume finishes it with the same proxy UID; Clean up deletes what it left.';

export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly journal: Journal;
  private readonly lastSent = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(private readonly o: StoreOptions) {
    const { journal, tasks } = Journal.open(o.dir, o.log, (replayed) => this.recover(replayed));
    this.journal = journal;
    for (const t of tasks) this.tasks.set(t.id, t);
  }

  get(id: string): TaskRecord | undefined {
    return this.tasks.get(id);
  }

  all(): TaskRecord[] {
    return [...this.tasks.values()];
  }

  children(parentId: string): TaskRecord[] {
    return this.all().filter((t) => t.parentId === parentId);
  }

  /** A new task: on disk before anything is sent for it; refused (throws) when it cannot be. */
  put(task: TaskRecord): void {
    try {
      this.journal.write(task.id, task);
    } catch (e) {
      this.refused(task, e);
      throw e instanceof AppError ? new AppError(e.kind, `The task was not started: ${e.message}`, e.hint) : e;
    }
    this.tasks.set(task.id, task);
    this.send(task.id, true);
  }

  /** Merges fields; journalled (fsync'd) before it returns, or not made at all (throws) — but see the file comment. */
  update(id: string, fields: Partial<TaskRecord>): TaskRecord {
    const task = this.tasks.get(id);
    if (!task) throw new Error(`no task ${id}`);
    const next = { ...task, ...fields };
    try {
      this.journal.write(id, fields);
    } catch (e) {
      const ends = fields.state !== undefined && finishedStates.has(fields.state);
      if (!ends && !isBulkParentKind(task.kind)) throw e;
      this.o.log.warn('task change kept in memory only: the journal cannot record it', { id, state: next.state });
    }
    this.tasks.set(id, next);
    this.send(id, fields.state !== undefined && fields.state !== task.state);
    return next;
  }

  /** Drops the oldest finished top-level tasks (with their children) beyond the history limit. */
  prune(): void {
    for (const id of this.beyondHistory()) {
      try {
        this.journal.drop(id);
      } catch {
        return; // kept for now: the journal still holds it; a later prune drops it
      }
      this.tasks.delete(id);
    }
    if (this.journal.needsCompaction) this.journal.compact(this.all());
  }

  /** What the journal has to tell the user: lines it could not read, or why it cannot be written. */
  notices(): string[] {
    return this.journal.notices();
  }

  close(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.journal.close();
  }

  get journalPath(): string {
    return this.journal.path;
  }

  /** A bulk create's child that could not be recorded: a parent left with no child ends failed, with the reason. */
  private refused(task: TaskRecord, e: unknown): void {
    const parent = task.parentId ? this.tasks.get(task.parentId) : undefined;
    if (!parent || finishedStates.has(parent.state) || this.children(parent.id).length > 0) return;
    const error = toAppErrorValue(e) ?? internalErrorValue;
    this.update(parent.id, { state: 'failed', error, message: error.message, endedAt: this.o.now().toISOString() });
  }

  private beyondHistory(): string[] {
    const finished = this.all()
      .filter((t) => !t.parentId && finishedStates.has(t.state) && !this.children(t.id).some((c) => !finishedStates.has(c.state)))
      .sort((a, b) => (b.endedAt ?? b.createdAt).localeCompare(a.endedAt ?? a.createdAt));
    return finished.slice(this.o.historyLimit).flatMap((old) => [old.id, ...this.children(old.id).map((c) => c.id)]);
  }

  private recover(replayed: Map<string, TaskRecord>): TaskRecord[] {
    const at = this.o.now().toISOString();
    for (const [id, t] of replayed) {
      if (t.state !== 'queued' && t.state !== 'running') continue;
      const steps = t.steps.map((s) => (s.state === 'running' ? { ...s, state: 'failed' as const } : s));
      replayed.set(id, { ...t, state: 'interrupted', endedAt: at, message: INTERRUPTED_MESSAGE, steps });
    }
    for (const t of replayed.values()) this.tasks.set(t.id, t);
    for (const id of this.beyondHistory()) this.tasks.delete(id);
    const kept = this.all();
    this.tasks.clear();
    return kept;
  }

  private send(id: string, now: boolean): void {
    const since = Date.now() - (this.lastSent.get(id) ?? 0);
    if (now || since >= this.o.throttleMs) {
      const timer = this.pending.get(id);
      if (timer) clearTimeout(timer);
      this.pending.delete(id);
      this.emit(id);
      return;
    }
    if (this.pending.has(id)) return;
    const timer = setTimeout(() => {
      this.pending.delete(id);
      this.emit(id);
    }, this.o.throttleMs - since);
    timer.unref();
    this.pending.set(id, timer);
  }

  private emit(id: string): void {
    const task = this.tasks.get(id);
    if (!task) return;
    this.lastSent.set(id, Date.now());
    this.o.publish(toView(task));
  }
}
