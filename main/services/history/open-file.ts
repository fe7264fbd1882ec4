/**
 * Opening the history file so that it never crashes the app: a file that is
 * not a database, fails PRAGMA quick_check, or carries a schema newer than
 * this build knows is moved aside (history.sqlite.corrupt-<timestamp>, with
 * its -wal and -shm) and a fresh one is created; if even that fails
 * (read-only folder, full disk) the history runs in memory and says why.
 */
import { chmodSync, existsSync, renameSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../../files/data-dir';
import { loadSqlite, type DatabaseSync } from './sqlite-module';
import { migrate, schemaVersion, SCHEMA_VERSION } from './schema';

export interface OpenedHistoryFile {
  db: DatabaseSync;
  /** False when the database runs in memory (asked for, or degraded). */
  onDisk: boolean;
  movedAside?: { path: string; reason: string };
  degraded?: string;
}

/**
 * How long a statement waits for a lock another process holds (the sqlite3
 * shell's .backup, a file indexer) before failing with SQLITE_BUSY; short,
 * because the app's main thread waits with it.
 */
const BUSY_TIMEOUT_MS = 1000;

/**
 * WAL: a writer never blocks a reader and a commit appends to the -wal file
 * instead of rewriting pages. synchronous=NORMAL: in WAL mode a commit is not
 * fsync'd, only checkpoints are; a power cut can lose the last commits but
 * never corrupts the file (sqlite.org/pragma.html#pragma_synchronous), which
 * is the right trade for monitoring history written every few seconds.
 */
function configure(db: DatabaseSync, onDisk: boolean): void {
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
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

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown; errcode?: unknown }).errcode ?? (error as { code?: unknown }).code;
    return code !== undefined ? `${error.message} (${String(code)})` : error.message;
  }
  return String(error);
}

function closeQuietly(db: DatabaseSync | undefined): void {
  try {
    db?.close();
  } catch {
    /* already closed or never opened */
  }
}

function openFile(file: string): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(file);
  try {
    configure(db, true);
    const reason = unusableReason(db);
    if (reason) throw new UnusableFileError(reason);
    migrate(db);
    // Like profiles.json (main/files/data-dir.ts): readable by this user only. SQLite gives the -wal and -shm the same mode.
    try {
      chmodSync(file, PRIVATE_FILE_MODE);
    } catch {
      /* a file system without modes (FAT, Windows): the folder's own protection is what there is */
    }
    return db;
  } catch (error) {
    closeQuietly(db);
    throw error;
  }
}

class UnusableFileError extends Error {}

/** SQLITE_CORRUPT and SQLITE_NOTADB (sqlite.org/rescode.html): the bytes are bad, not the moment. */
const CORRUPT_CODES = new Set([11, 26]);

/**
 * Whether the error says the file itself is bad. A busy lock, a full disk or a
 * permission problem leaves the file alone: moving a healthy history aside
 * because another process held a lock for a second would lose it for nothing.
 */
function fileIsBad(error: unknown): boolean {
  if (error instanceof UnusableFileError) return true;
  const errcode = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof errcode === 'number' && CORRUPT_CODES.has(errcode & 0xff);
}

/** Moves the file and its -wal/-shm aside; returns the new main path. */
function moveAside(file: string, at: number): string {
  const stamp = new Date(at).toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.corrupt-${stamp}`;
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

export function openHistoryFile(file: string, now: number): OpenedHistoryFile {
  if (file === ':memory:') return { db: openInMemory(), onDisk: false };
  let movedAside: OpenedHistoryFile['movedAside'];
  try {
    return { db: openFile(file), onDisk: true };
  } catch (error) {
    const reason = error instanceof UnusableFileError ? error.message : `could not be read: ${describe(error)}`;
    if (existsSync(file) && !fileIsBad(error)) {
      return { db: openInMemory(), onDisk: false, degraded: `${file} could not be opened: ${describe(error)}` };
    }
    if (existsSync(file)) {
      try {
        movedAside = { path: moveAside(file, now), reason };
      } catch (moveError) {
        return { db: openInMemory(), onDisk: false, degraded: `${file} ${reason}, and could not be moved aside: ${describe(moveError)}` };
      }
    } else {
      return { db: openInMemory(), onDisk: false, degraded: `${file} could not be created: ${describe(error)}` };
    }
  }
  try {
    return { db: openFile(file), onDisk: true, movedAside };
  } catch (error) {
    return { db: openInMemory(), onDisk: false, movedAside, degraded: `a fresh ${file} could not be created: ${describe(error)}` };
  }
}
