/**
 * Opening the history file so that it never crashes the app: a file that is
 * not a database, fails PRAGMA quick_check, or carries a schema newer than
 * this build knows is moved aside (history.sqlite.corrupt-<timestamp>, with
 * its -wal and -shm) and a fresh one is created; if even that fails
 * (read-only folder, full disk) the history runs in memory and says why.
 *
 * A file another process holds locked (a second copy of the app, the sqlite3
 * shell in exclusive locking mode) is healthy: it is left alone, tried again
 * a few times at start, and if still locked the history runs in memory with
 * `locked` set, so reopen.ts keeps trying it in the background
 * (reopenHistoryFile) and session-move.ts moves the session's rows into it.
 */
import { accessSync, closeSync, constants, existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFilePrivate, openPrivateFile } from '../../files/data-dir';
import { unwritableCode, whyUnwritable } from '../../files/unwritable';
import { loadSqlite, type DatabaseSync } from './sqlite-module';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema';

export interface OpenedHistoryFile {
  db: DatabaseSync;
  /** False when the database runs in memory (asked for, or degraded). */
  onDisk: boolean;
  movedAside?: { path: string; reason: string };
  degraded?: string;
  /** The file is there and healthy but another process held it locked through every attempt at start. */
  locked?: boolean;
}

/**
 * How long a statement waits for a lock another process holds (the sqlite3
 * shell's .backup, a file indexer) before failing with SQLITE_BUSY; short,
 * because the app's main thread waits with it.
 */
const BUSY_TIMEOUT_MS = 1000;

/**
 * Opens tried at start while the file is locked, each waiting out the busy
 * timeout: a lock held for a second or so (another program's short
 * transaction) is waited for; a longer one is left to the background reopen.
 * SQLite returns some busy states without calling its busy handler (a WAL
 * being recovered: sqlite.org/rescode.html#busy_recovery), so it is the
 * whole open that is tried again, not just one statement.
 */
const START_ATTEMPTS = 2;

/**
 * WAL: a writer never blocks a reader and a commit appends to the -wal file
 * instead of rewriting pages. synchronous=NORMAL: in WAL mode a commit is not
 * fsync'd, only checkpoints are; a power cut can lose the last commits but
 * never corrupts the file (sqlite.org/pragma.html#pragma_synchronous), which
 * is the right trade for monitoring history written every few seconds.
 */
function configure(db: DatabaseSync, onDisk: boolean, busyTimeoutMs = BUSY_TIMEOUT_MS): void {
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  if (onDisk) {
    const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode?: string } | undefined;
    if (mode?.journal_mode !== 'wal') throw new Error(`could not switch to WAL (journal_mode ${mode?.journal_mode ?? '?'})`);
  }
  db.exec('PRAGMA synchronous = NORMAL');
}

/** Why this file cannot be used as it is, or undefined when it can. Throws when it cannot even be read. */
function unusableReason(db: DatabaseSync): string | undefined {
  const rows = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
  const verdict = rows.map((row) => row.quick_check).join('; ');
  if (verdict !== 'ok') return `failed its integrity check (${verdict.slice(0, 200)})`;
  const version = schemaVersion(db);
  if (version > SCHEMA_VERSION) return `was written by a newer Egress Desk (schema v${version}, this version knows v${SCHEMA_VERSION})`;
  return undefined;
}

export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown; errcode?: unknown }).errcode ?? (error as { code?: unknown }).code;
    return code !== undefined ? `${error.message} (${String(code)})` : error.message;
  }
  return String(error);
}

/**
 * The error in words, with the folder's problem when it is the folder (SQLite says only "unable to open database
 * file" for a read-only disk: it cannot make the -wal and -shm files beside the database).
 */
function describeAt(file: string, error: unknown): string {
  const dir = dirname(file);
  try {
    accessSync(dir, constants.W_OK);
    return describe(error);
  } catch (e) {
    const code = unwritableCode(e);
    return code ? `${describe(error)}: ${whyUnwritable(code, dir)}` : describe(error);
  }
}

export function closeQuietly(db: DatabaseSync | undefined): void {
  try {
    db?.close();
  } catch {
    /* already closed or never opened */
  }
}

/** The files SQLite keeps beside a database: the WAL, its shared-memory index, a rollback journal. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

/**
 * Like profiles.json (main/files/data-dir.ts): readable by this user only, before SQLite opens it. SQLite gives every
 * -wal, -shm and -journal it creates the database file's mode (os_unix.c findCreateFileMode), so they are born
 * 0600 too; ones already there (an older version's, made 0644) are made 0600. An existing file is only chmod'ed,
 * never opened: closing a descriptor of it would drop the POSIX locks this process's connections hold on it.
 */
function makeHistoryPrivate(file: string): void {
  if (existsSync(file)) makeFilePrivate(file);
  else {
    try {
      closeSync(openPrivateFile(file, 'wx')); // an empty file is an empty database to SQLite
    } catch {
      /* made meanwhile, or a folder that cannot be written: SQLite's own open says what is wrong */
    }
  }
  for (const suffix of SIDE_FILES) makeFilePrivate(file + suffix);
}

function openFile(file: string, busyTimeoutMs = BUSY_TIMEOUT_MS): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  makeHistoryPrivate(file);
  const db = new DatabaseSync(file);
  try {
    configure(db, true, busyTimeoutMs);
    const reason = unusableReason(db);
    if (reason) throw new UnusableFileError(reason);
    migrate(db);
    return db;
  } catch (error) {
    closeQuietly(db);
    throw error;
  }
}

class UnusableFileError extends Error {}

/** SQLITE_CORRUPT and SQLITE_NOTADB (sqlite.org/rescode.html): the bytes are bad, not the moment. */
const CORRUPT_CODES = new Set([11, 26]);
/** SQLITE_BUSY and SQLITE_LOCKED: another connection holds a lock the open needs; the moment is bad, not the file. */
const LOCKED_CODES = new Set([5, 6]);

const primaryCode = (error: unknown): number | undefined => {
  const errcode = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
};

export function isLocked(error: unknown): boolean {
  return LOCKED_CODES.has(primaryCode(error) ?? -1);
}

/**
 * Whether the error says the file itself is bad. A busy lock, a full disk or a
 * permission problem leaves the file alone: moving a healthy history aside
 * because another process held a lock for a second would lose it for nothing.
 */
function fileIsBad(error: unknown): boolean {
  if (error instanceof UnusableFileError) return true;
  return CORRUPT_CODES.has(primaryCode(error) ?? -1);
}

/** Moves the file and its -wal/-shm aside; returns the new main path. */
function moveAside(file: string, at: number): string {
  const stamp = new Date(at).toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.corrupt-${stamp}`;
  // Already 0600 (makeHistoryPrivate ran before the open that found the file bad): a rename keeps the mode.
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

function openInMemory(): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(':memory:');
  configure(db, false);
  migrate(db);
  return db;
}

/** The first open, tried again while another process holds the file locked (START_ATTEMPTS in all). */
function openAtStart(file: string): DatabaseSync {
  for (let attempt = 1; ; attempt++) {
    try {
      return openFile(file);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !isLocked(error)) throw error;
    }
  }
}

/**
 * One more try at a file that was locked, without waiting for the lock (the
 * main thread must not sleep in the busy handler from a timer); once open it
 * waits for locks like any open. Throws what the open threw.
 */
export function reopenHistoryFile(file: string): DatabaseSync {
  const db = openFile(file, 0);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

export function openHistoryFile(file: string, now: number): OpenedHistoryFile {
  if (file === ':memory:') return { db: openInMemory(), onDisk: false };
  let movedAside: OpenedHistoryFile['movedAside'];
  try {
    return { db: openAtStart(file), onDisk: true };
  } catch (error) {
    const reason = error instanceof UnusableFileError ? error.message : `could not be read: ${describe(error)}`;
    if (existsSync(file) && isLocked(error)) {
      return {
        db: openInMemory(),
        onDisk: false,
        locked: true,
        degraded: `${file} could not be opened: it is locked by another program (${describe(error)})`,
      };
    }
    if (existsSync(file) && !fileIsBad(error)) {
      return { db: openInMemory(), onDisk: false, degraded: `${file} could not be opened: ${describeAt(file, error)}` };
    }
    if (existsSync(file)) {
      try {
        movedAside = { path: moveAside(file, now), reason };
      } catch (moveError) {
        return { db: openInMemory(), onDisk: false, degraded: `${file} ${reason}, and could not be moved aside: ${describe(moveError)}` };
      }
    } else {
      return { db: openInMemory(), onDisk: false, degraded: `${file} could not be created: ${describeAt(file, error)}` };
    }
  }
  try {
    return { db: openFile(file), onDisk: true, movedAside };
  } catch (error) {
    return { db: openInMemory(), onDisk: false, movedAside, degraded: `a fresh ${file} could not be created: ${describe(error)}` };
  }
}
