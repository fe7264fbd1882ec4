/**
 * The tasks in memory, mirrored to the journal on every change and pushed
 * to the renderer (a state change at once, progress at most every
 * `throttleMs` per task). Opening it turns every task the last run left
 * queued or running into `interrupted`, and keeps a bounded history.
 */
import type { TaskView } from '../../../shared/channels/tasks';
import type { Logger } from '../../log/logger';
import { Journal } from './journal';
import { finishedStates, toView, type TaskRecord } from './task-record';

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

  /** A new task: on disk before anything is sent for it. */
  put(task: TaskRecord): void {
    this.tasks.set(task.id, task);
    this.journal.write(task.id, task);
    this.send(task.id, true);
  }

  /** Merges fields; journalled (fsync'd) before it returns. */
  update(id: string, fields: Partial<TaskRecord>): TaskRecord {
    const task = this.tasks.get(id);
    if (!task) throw new Error(`no task ${id}`);
    const next = { ...task, ...fields };
    this.tasks.set(id, next);
    this.journal.write(id, fields);
    this.send(id, fields.state !== undefined && fields.state !== task.state);
    return next;
  }

  /** Drops the oldest finished top-level tasks (with their children) beyond the history limit. */
  prune(): void {
    for (const id of this.beyondHistory()) {
      this.tasks.delete(id);
      this.journal.drop(id);
    }
    if (this.journal.needsCompaction) this.journal.compact(this.all());
  }

  close(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.journal.close();
  }

  get journalPath(): string {
    return this.journal.path;
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
