/**
 * The task journal: one JSON-lines file, appended and fsync'd before the
 * call it describes goes out, so a crash loses nothing the app already sent
 * to Proxmox. Each line merges fields into one task (`{id, ...fields}`) or
 * drops it (`{id, drop: true}`); journal-schema.ts says what a line is.
 *
 * Opening replays the file (journal-replay.ts); what fails the schema is
 * skipped, copied byte for byte to `tasks.jsonl.corrupt` beside the journal
 * (journal-aside.ts), logged and reported (`notices`). Then the file is
 * compacted (one line per kept task, written to a temporary file and renamed
 * over) — but only once the unreadable lines are safe in the copy.
 *
 * A write that fails (disk full, read-only folder) throws an AppError that
 * says so (journal-failure.ts), and leaves the file as it was: whatever part
 * of the line made it to disk is cut off again. A journal that cannot be
 * compacted (disk full) is appended to as it is; one that cannot even be
 * opened (read-only folder) starts read-only: its tasks are listed and every
 * write is refused with the reason, until a later write finds the folder
 * writable again.
 *
 * The folder is 0700 and every file in it 0600, set explicitly.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../errors/app-error';
import type { Logger } from '../../../log/logger';
import { ensurePrivateDir, openPrivateFile, syncDir, writeAll } from '../../../files/data-dir';
import { keepAside } from './journal-aside';
import { describe, journalFailure } from './journal-failure';
import { replay, type Replayed } from './journal-replay';
import type { TaskRecord } from './task-record';

export { CORRUPT_SUFFIX } from './journal-aside';
export const JOURNAL_FILE = 'tasks.jsonl';
const COMPACT_AFTER_LINES = 20_000;

type Line = ({ id: string } & Partial<TaskRecord>) | { id: string; drop: true };

// ---- What the last open found, for the UI. ----

const open = new Map<string, Journal>();

/** What the journal at `path` has to tell the user now: unreadable lines kept aside, or why it cannot be written. */
export function journalNotices(path: string): string[] {
  return open.get(path)?.notices() ?? [];
}

export class Journal {
  readonly path: string;
  private fd = -1;
  private linesSinceCompaction = 0;
  /** The next line must start on a new line: the file ends in a line without its newline. */
  private needsNewline = false;
  /** Bytes after the last whole line to cut off when the file is next opened for appending. */
  private cutTo: number | undefined;
  /** The last write's failure, until a write succeeds. */
  private failure: AppError | undefined;
  /** Set when the file could not be read: it is never written, so nothing in it is overwritten. */
  private unreadable: AppError | undefined;
  private report: string | undefined;

  private constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {
    this.path = join(dir, JOURNAL_FILE);
  }

  /** Replays the journal; `keep` decides what the compacted file holds. Never throws for the disk's sake. */
  static open(dir: string, log: Logger, keep: (tasks: Map<string, TaskRecord>) => TaskRecord[]): { journal: Journal; tasks: TaskRecord[] } {
    const journal = new Journal(dir, log);
    const tasks = journal.start(keep);
    open.set(journal.path, journal);
    return { journal, tasks };
  }

  /** Merges fields into a task's journalled state; returns once the line is on disk, or throws the AppError saying why not. */
  write(id: string, fields: Partial<TaskRecord>): void {
    this.append({ id, ...fields });
  }

  drop(id: string): void {
    this.append({ id, drop: true });
  }

  /** Rewrites the journal as one line per task; `all` is what must survive. A failure leaves the journal as it was. */
  compact(all: TaskRecord[]): void {
    try {
      this.rewrite(all);
    } catch (e) {
      this.log.warn('task journal: compaction failed; appending to the journal as it is', { reason: describe(e) });
    }
  }

  get needsCompaction(): boolean {
    return this.linesSinceCompaction > COMPACT_AFTER_LINES;
  }

  /** Why writes are refused right now, if they are. */
  get writeFailure(): AppError | undefined {
    return this.unreadable ?? this.failure;
  }

  notices(): string[] {
    const out = this.report ? [this.report] : [];
    const failure = this.writeFailure;
    if (failure)
      out.push(`${failure.message} Tasks are refused, and running ones stop before their next request, until then: ${failure.hint}`);
    return out;
  }

  close(): void {
    this.closeFile();
    if (open.get(this.path) === this) open.delete(this.path);
  }

  private closeFile(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private start(keep: (tasks: Map<string, TaskRecord>) => TaskRecord[]): TaskRecord[] {
    let replayed: Replayed;
    try {
      replayed = replay(this.path, this.log);
    } catch (e) {
      // Not even readable: list nothing, and never write over what is there.
      this.unreadable = new AppError(
        'permanent',
        `Egress Desk could not read its task journal (${describe(e)}), so it records no task.`,
        `Check ${this.path} (its permissions, its disk), then restart Egress Desk.`,
      );
      this.log.error('task journal: unreadable; tasks are refused', { path: this.path, reason: describe(e) });
      return keep(new Map());
    }
    const tasks = keep(replayed.tasks);
    const aside = keepAside(this.path, replayed.bad, replayed.whole, this.log);
    this.report = aside.report;
    this.cutTo = replayed.tail === 'cut' ? replayed.wholeLength : undefined;
    this.needsNewline = replayed.tail === 'unterminated';
    if (aside.safe) {
      try {
        this.rewrite(tasks);
        return tasks;
      } catch (e) {
        this.failure = journalFailure(e, this.dir);
        this.log.warn('task journal: could not be compacted at start; appending to it as it is', { reason: describe(e) });
      }
    }
    try {
      this.openForAppend();
    } catch (e) {
      this.failure = journalFailure(e, this.dir);
      this.log.warn('task journal: cannot be written; tasks are refused until it can', { path: this.path, reason: describe(e) });
    }
    return tasks;
  }

  private append(line: Line): void {
    // A field set to undefined is written as null, so the replay clears it too.
    const text = (this.needsNewline ? '\n' : '') + JSON.stringify(line, (_k, v: unknown) => (v === undefined ? null : v)) + '\n';
    if (this.unreadable) throw this.unreadable;
    if (this.fd < 0) {
      try {
        this.openForAppend();
      } catch (e) {
        throw this.failed(e);
      }
    }
    let before: number | undefined;
    try {
      before = fstatSync(this.fd).size;
      writeAll(this.fd, Buffer.from(text));
      fsyncSync(this.fd);
    } catch (e) {
      // What part of the line made it is cut off again: the next line must not run into it.
      if (before !== undefined) {
        try {
          ftruncateSync(this.fd, before);
        } catch {
          this.needsNewline = true;
        }
      }
      throw this.failed(e);
    }
    this.needsNewline = false;
    this.linesSinceCompaction++;
    if (this.failure) {
      this.log.info('task journal: writable again');
      this.failure = undefined;
    }
  }

  private failed(e: unknown): AppError {
    const failure = journalFailure(e, this.dir);
    if (this.failure?.message !== failure.message)
      this.log.warn('task journal: a write failed; the task it was for stops', { path: this.path, reason: describe(e) });
    this.failure = failure;
    return failure;
  }

  private openForAppend(): void {
    ensurePrivateDir(this.dir);
    const fd = openPrivateFile(this.path, 'a');
    try {
      if (this.cutTo !== undefined && fstatSync(fd).size > this.cutTo) ftruncateSync(fd, this.cutTo);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    this.cutTo = undefined;
    this.fd = fd;
  }

  private rewrite(tasks: TaskRecord[]): void {
    ensurePrivateDir(this.dir);
    const tmp = `${this.path}.tmp`;
    let fd: number | undefined = openPrivateFile(tmp, 'w');
    try {
      writeAll(fd, Buffer.from(tasks.map((t) => JSON.stringify(t) + '\n').join('')));
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      // Closed before the rename: Windows cannot rename over an open file.
      this.closeFile();
      renameSync(tmp, this.path);
    } catch (e) {
      if (fd !== undefined) closeSync(fd);
      rmSync(tmp, { force: true });
      throw e;
    }
    syncDir(this.dir);
    this.cutTo = undefined;
    this.needsNewline = false;
    this.openForAppend();
    this.linesSinceCompaction = 0;
  }
}
