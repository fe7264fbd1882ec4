/**
 * The task journal: one JSON-lines file, appended and fsync'd before the
 * call it describes goes out, so a crash loses nothing the app already sent
 * to Proxmox. Each line merges fields into one task (`{id, ...fields}`) or
 * drops it (`{id, drop: true}`). Opening replays the file, then compacts it
 * (one line per kept task, written to a temporary file and renamed over).
 * The file and its directory are private to the user (0600 / 0700).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../log/logger';
import type { TaskRecord } from './task-record';

export const JOURNAL_FILE = 'tasks.jsonl';
const COMPACT_AFTER_LINES = 20_000;

type Line = ({ id: string } & Partial<TaskRecord>) | { id: string; drop: true };

export class Journal {
  readonly path: string;
  private fd: number;
  private linesSinceCompaction = 0;

  private constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {
    this.path = join(dir, JOURNAL_FILE);
    this.fd = -1;
  }

  /** Replays the journal; `keep` decides what the compacted file holds. */
  static open(dir: string, log: Logger, keep: (tasks: Map<string, TaskRecord>) => TaskRecord[]): { journal: Journal; tasks: TaskRecord[] } {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const journal = new Journal(dir, log);
    const tasks = keep(journal.replay());
    journal.rewrite(tasks);
    return { journal, tasks };
  }

  /** Merges fields into a task's journalled state; returns once the line is on disk. */
  write(id: string, fields: Partial<TaskRecord>): void {
    this.append({ id, ...fields });
  }

  drop(id: string): void {
    this.append({ id, drop: true });
  }

  /** Rewrites the journal as one line per task; `all` is what must survive. */
  compact(all: TaskRecord[]): void {
    this.rewrite(all);
  }

  get needsCompaction(): boolean {
    return this.linesSinceCompaction > COMPACT_AFTER_LINES;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private append(line: Line): void {
    // A field set to undefined is written as null, so the replay clears it too.
    writeSync(this.fd, JSON.stringify(line, (_k, v: unknown) => (v === undefined ? null : v)) + '\n');
    fsyncSync(this.fd);
    this.linesSinceCompaction++;
  }

  private replay(): Map<string, TaskRecord> {
    const tasks = new Map<string, TaskRecord>();
    if (!existsSync(this.path)) return tasks;
    const text = readFileSync(this.path, 'utf8');
    let bad = 0;
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        // A line cut by a crash mid-write: everything before it is intact.
        bad++;
        continue;
      }
      if ('drop' in line) tasks.delete(line.id);
      else tasks.set(line.id, withoutNulls({ ...tasks.get(line.id), ...line }) as TaskRecord);
    }
    if (bad > 0) this.log.warn('task journal: skipped unreadable lines', { lines: bad });
    for (const [id, task] of tasks) if (!task.kind || !task.input) tasks.delete(id);
    return tasks;
  }

  private rewrite(tasks: TaskRecord[]): void {
    this.close();
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, tasks.map((t) => JSON.stringify(t) + '\n').join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    syncDir(this.dir);
    this.fd = openSync(this.path, 'a', 0o600);
    this.linesSinceCompaction = 0;
  }
}

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

/** The rename is durable only once the directory entry is. Not every platform can fsync a directory. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot open a directory; its rename is already durable enough for this file.
  }
}
