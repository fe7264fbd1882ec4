/**
 * The task journal: one JSON-lines file, appended and fsync'd before the
 * call it describes goes out, so a crash loses nothing the app already sent
 * to Proxmox. Each line merges fields into one task (`{id, ...fields}`) or
 * drops it (`{id, drop: true}`).
 *
 * Opening replays the file and checks every line, and every task the lines
 * build, against a schema. What fails is skipped, copied byte for byte to
 * `tasks.jsonl.corrupt` beside the journal, logged and reported (`notices`);
 * a last line cut short by a crash mid-write is dropped (logged at info): its
 * fsync never returned, so nothing it described was sent. Then the file is
 * compacted (one line per kept task, written to a temporary file and renamed
 * over) — but only once the unreadable lines are safe in the copy.
 *
 * A write that fails (disk full, read-only folder) throws an AppError that
 * says so, and leaves the file as it was: whatever part of the line made it
 * to disk is cut off again. A journal that cannot be compacted (disk full) is
 * appended to as it is; one that cannot even be opened (read-only folder)
 * starts read-only: its tasks are listed and every write is refused with the
 * reason, until a later write finds the folder writable again.
 *
 * The folder is 0700 and every file in it 0600, set explicitly.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { bulkParentKinds, SeedRef, TaskView } from '../../../shared/channels/tasks';
import { BuildRequestRecord, BuildResumeRecord } from '../../../shared/channels/templates';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import { ensurePrivateDir, openPrivateFile, syncDir, writeAll } from '../../files/data-dir';
import type { TaskRecord } from './task-record';

export const JOURNAL_FILE = 'tasks.jsonl';
/** Where unreadable lines are kept, beside the journal: `tasks.jsonl.corrupt`. */
export const CORRUPT_SUFFIX = '.corrupt';
const COMPACT_AFTER_LINES = 20_000;

type Line = ({ id: string } & Partial<TaskRecord>) | { id: string; drop: true };

// ---- The schema every replayed line and task is checked against. ----

const oneVm = { clusterId: z.string(), vmid: z.number(), name: z.string(), uid: z.string() };

const TaskInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('create-proxy'),
    uid: z.string(),
    name: z.string(),
    node: z.string(),
    template: z.string(),
    machineType: z.string(),
    sealedCloudInit: z.string().optional(),
  }),
  z.object({
    kind: z.literal('delete-proxy'),
    providerId: z.string(),
    expect: z.union([z.object({ uid: z.string() }), z.literal('absent')]).optional(),
  }),
  z.object({ kind: z.literal('clean-up'), ofTaskId: z.string(), uid: z.string(), name: z.string(), vmid: z.number().optional() }),
  z.object({ kind: z.literal('clean-seeds'), seeds: z.array(SeedRef), dryRun: z.boolean(), graceMinutes: z.number() }),
  z.object({ kind: z.enum(['doctor', ...bulkParentKinds]) }),
  z.object({
    kind: z.literal('migrate-proxy'),
    ...oneVm,
    to: z.string(),
    from: z.string().optional(),
    sealedCloudInit: z.string().optional(),
  }),
  z.object({
    kind: z.literal('reconfigure-proxy'),
    ...oneVm,
    cores: z.number().optional(),
    memoryMiB: z.number().optional(),
    diskGiB: z.number().optional(),
    sealedCloudInit: z.string().optional(),
    instanceId: z.string().optional(),
    reboot: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('recreate-proxy'),
    ...oneVm,
    newUid: z.string(),
    template: z.string(),
    machineType: z.string(),
    node: z.string().optional(),
    sealedCloudInit: z.string().optional(),
  }),
  z.object({
    kind: z.enum(['start-proxy', 'shutdown-proxy', 'stop-proxy', 'reboot-proxy']),
    clusterId: z.string(),
    vmid: z.number(),
    name: z.string(),
    uid: z.string(),
    timeoutSeconds: z.number().optional(),
    timedOut: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('build-template'),
    request: BuildRequestRecord,
    resume: BuildResumeRecord.optional(),
    leftovers: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal('clean-up-build'), ofTaskId: z.string(), request: BuildRequestRecord, resume: BuildResumeRecord }),
]);

/** A whole task as the journal keeps it: the view without its actions, plus the request. Unknown keys are dropped. */
const TaskRecordSchema = z.object({ ...TaskView.omit({ actions: true }).shape, input: TaskInputSchema });

// The schema and the type must not drift apart (a field the schema lacks would be dropped on replay): this fails to
// compile when they do, down to each input kind's optional fields.
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type InputOf<R, K> = Extract<R extends { input: infer I } ? I : never, { kind: K }>;
type Journalled = z.infer<typeof TaskRecordSchema>;
const schemaMatchesRecord: {
  [K in TaskRecord['input']['kind']]: Same<InputOf<Journalled, K>, InputOf<TaskRecord, K>>;
} & { record: Same<Omit<Journalled, 'input'>, Omit<TaskRecord, 'input'>> } = {
  'create-proxy': true,
  'create-proxies': true,
  'delete-proxy': true,
  'clean-up': true,
  'clean-seeds': true,
  doctor: true,
  'build-template': true,
  'clean-up-build': true,
  'start-proxy': true,
  'shutdown-proxy': true,
  'stop-proxy': true,
  'reboot-proxy': true,
  'power-proxies': true,
  'delete-proxies': true,
  'migrate-proxy': true,
  'reconfigure-proxy': true,
  'recreate-proxy': true,
  'migrate-proxies': true,
  'reconfigure-proxies': true,
  'recreate-proxies': true,
  record: true,
};
void schemaMatchesRecord;

/** One line's fields: any part of a task, with `null` for a field it clears. */
const FieldsSchema = TaskRecordSchema.partial().extend({ id: z.string().min(1) });
const DropSchema = z.object({ id: z.string().min(1), drop: z.literal(true) }).strict();
const clearable = new Set(
  Object.entries(TaskRecordSchema.shape)
    .filter(([, schema]) => schema.safeParse(undefined).success)
    .map(([key]) => key),
);

type Parsed = { id: string; drop: true } | { id: string; set: Record<string, unknown>; cleared: string[] };

/** A line as the journal writes it, or undefined for anything else. */
function parseLine(raw: Buffer): Parsed | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const drop = DropSchema.safeParse(value);
  if (drop.success) return drop.data;
  const set: Record<string, unknown> = {};
  const cleared: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === null) cleared.push(key);
    else set[key] = key === 'input' && typeof v === 'object' && !Array.isArray(v) ? withoutNulls(v as Record<string, unknown>) : v;
  }
  if (cleared.some((key) => !clearable.has(key))) return undefined;
  const fields = FieldsSchema.safeParse(set);
  if (!fields.success) return undefined;
  return { id: fields.data.id, set: fields.data, cleared };
}

/** The start of a line this journal writes: a tail that is a piece of one was cut off by a crash mid-write. */
const LINE_START = '{"id":';
function cutShort(raw: Buffer): boolean {
  const text = raw.toString('utf8');
  return text.startsWith(LINE_START) || LINE_START.startsWith(text);
}

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

// ---- Failures, in the words the user sees. ----

/** Why the journal could not be written, as the error a task fails with and a request is refused with. */
export function journalFailure(e: unknown, dir: string): AppError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new AppError(
      'transient',
      'Egress Desk could not record progress: disk full.',
      `Free space in ${dir} (the disk it is on is full), then try again.`,
    );
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return new AppError(
      'permanent',
      'Egress Desk could not record progress: the data folder is read-only.',
      `Make ${dir} writable again (it, or the disk it is on, is read-only), then try again.`,
    );
  return new AppError(
    'transient',
    `Egress Desk could not record progress: ${code ?? (e instanceof Error ? e.message : String(e))}.`,
    `Check ${dir} and the disk it is on, then try again.`,
  );
}

// ---- What the last open found, for the UI. ----

const open = new Map<string, Journal>();

/** What the journal at `path` has to tell the user now: unreadable lines kept aside, or why it cannot be written. */
export function journalNotices(path: string): string[] {
  return open.get(path)?.notices() ?? [];
}

interface Replayed {
  tasks: Map<string, TaskRecord>;
  /** Lines that failed the schema, as they were on disk; or, when not one line was readable, the whole file. */
  bad: Buffer[];
  whole: boolean;
  /** Bytes up to the end of the last whole line. */
  wholeLength: number;
  /** What follows the last newline: nothing, a line cut short (dropped), or a line that needs its newline. */
  tail: 'none' | 'cut' | 'unterminated';
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
      replayed = this.replay();
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
    const keptAside = this.keepAside(replayed.bad, replayed.whole);
    this.cutTo = replayed.tail === 'cut' ? replayed.wholeLength : undefined;
    this.needsNewline = replayed.tail === 'unterminated';
    if (keptAside) {
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

  private replay(): Replayed {
    const tasks = new Map<string, TaskRecord>();
    let data: Buffer;
    try {
      data = readFileSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { tasks, bad: [], whole: false, wholeLength: 0, tail: 'none' };
      throw e;
    }
    // Each task's fields so far, with the lines that built them (kept aside whole if the task turns out unreadable).
    const built = new Map<string, { fields: Record<string, unknown>; lines: { at: number; raw: Buffer }[] }>();
    const bad: { at: number; raw: Buffer }[] = [];
    let tail: Replayed['tail'] = 'none';
    let wholeLength = 0;
    let readable = 0;
    for (let start = 0, at = 0; start < data.length; at++) {
      const newline = data.indexOf(0x0a, start);
      const end = newline < 0 ? data.length : newline;
      const raw = data.subarray(start, end);
      start = end + 1;
      if (newline >= 0) wholeLength = start;
      if (raw.toString('utf8').trim() === '') continue;
      const line = parseLine(raw);
      if (newline < 0) tail = line ? 'unterminated' : cutShort(raw) ? 'cut' : 'unterminated';
      if (!line) {
        if (tail === 'cut') this.log.info('task journal: dropped its last line, cut short by a crash mid-write', { bytes: raw.length });
        else bad.push({ at, raw });
        continue;
      }
      readable++;
      if ('drop' in line) {
        built.delete(line.id);
        continue;
      }
      const entry = built.get(line.id) ?? { fields: {}, lines: [] };
      const cleared = new Set(line.cleared);
      entry.fields = Object.fromEntries(Object.entries({ ...entry.fields, ...line.set }).filter(([key]) => !cleared.has(key)));
      entry.lines.push({ at, raw });
      built.set(line.id, entry);
    }
    for (const [id, entry] of built) {
      const task = TaskRecordSchema.safeParse(entry.fields);
      if (task.success) tasks.set(id, task.data);
      else bad.push(...entry.lines);
    }
    // Not one readable line: the whole file is kept aside as it is, blank lines and all.
    if (readable === 0 && bad.length > 0)
      return { tasks, bad: [data.subarray(0, data.at(-1) === 0x0a ? -1 : undefined)], whole: true, wholeLength, tail };
    bad.sort((a, b) => a.at - b.at);
    return { tasks, bad: bad.map((b) => b.raw), whole: false, wholeLength, tail };
  }

  /** Appends unreadable lines to the `.corrupt` copy. True when they are safe there (or there were none). */
  private keepAside(bad: Buffer[], whole: boolean): boolean {
    if (bad.length === 0) return true;
    const copy = this.path + CORRUPT_SUFFIX;
    const n = whole
      ? `The task journal was unreadable as a whole (${bad[0]!.length} bytes, not one task in it could be read)`
      : `${bad.length} task journal line${bad.length === 1 ? ' was' : 's were'} unreadable`;
    let fd: number | undefined;
    try {
      fd = openPrivateFile(copy, 'a');
      const size = fstatSync(fd).size;
      try {
        writeAll(fd, Buffer.concat(bad.flatMap((raw) => [raw, Buffer.from('\n')])));
        fsyncSync(fd);
      } catch (e) {
        ftruncateSync(fd, size);
        throw e;
      }
    } catch (e) {
      this.report = `${n} and could not be copied aside (${describe(e)}); ${whole ? 'it was' : 'they were'} skipped and left in ${this.path}.`;
      this.log.error('task journal: unreadable lines could not be kept aside; the journal is left as it is', {
        lines: bad.length,
        path: this.path,
        reason: describe(e),
      });
      return false;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.report = `${n} and kept in ${copy}; ${whole ? 'the task list starts empty' : 'the tasks they described are not listed'}.`;
    this.log.warn('task journal: skipped unreadable lines and kept them aside', { lines: bad.length, keptIn: copy });
    return true;
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

function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (e instanceof Error ? e.message : String(e));
}
