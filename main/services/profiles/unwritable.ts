/**
 * A data folder the app cannot write (issue 10): the disk is full, it is
 * read-only, or the user may not write there. A fresh install in that state
 * still starts: with no profile file yet there is nothing to lose, so the app
 * starts empty (the built-in demo works), says so, and writes the file at the
 * first save. A save that fails the same way says it in words, classified.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreProblem } from '../../../shared/domain/profile';
import { AppError } from '../../errors/app-error';
import { ensurePrivateDir } from '../../files/data-dir';
import { memoryDocumentStore, type DocumentStore } from './document-store';

/** The write failures that mean "this folder cannot be written now", not "this file is broken". */
export const UNWRITABLE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EROFS', 'EACCES']);

export function unwritableCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && UNWRITABLE_CODES.has(code) ? code : undefined;
}

/** Why `dataDir` cannot be written, in words, for an unwritable code (UNWRITABLE_CODES). */
export function whyUnwritable(code: string, dataDir: string): string {
  if (code === 'ENOSPC') return `the disk holding ${dataDir} is full`;
  if (code === 'EROFS') return `${dataDir} is on a read-only disk`;
  return `Egress Desk may not write to ${dataDir}`;
}

/**
 * A recursive mkdir under a read-only parent can report ENOENT (the parent is there); one plain mkdir of the last
 * folder then tells the real cause (EROFS, EACCES, ENOSPC).
 */
export function mkdirCause(dir: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') return err;
  try {
    mkdirSync(dir);
    return err;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? err : e;
  }
}

/** Makes the data folder 0700 (ensurePrivateDir), throwing the real cause when it cannot. */
export function makeDataDir(dir: string): void {
  try {
    ensurePrivateDir(dir);
  } catch (err) {
    throw mkdirCause(dir, err);
  }
}

/** What the app says when it starts without a profile file it can write. */
export function startedEmptyProblem(code: string, dataDir: string): StoreProblem {
  return {
    message:
      `Egress Desk cannot write its data folder: ${whyUnwritable(code, dataDir)}. It started with no saved clusters (the built-in demo still works); ` +
      `saving a cluster writes the folder then, so ${code === 'ENOSPC' ? 'free space' : 'make it writable'} first.`,
  };
}

/** A save that failed because the folder cannot be written, in words; undefined for any other failure. */
export function saveFailure(err: unknown, dataDir: string): AppError | undefined {
  const code = unwritableCode(err);
  if (!code) return undefined;
  if (code === 'ENOSPC')
    return new AppError(
      'transient',
      `Could not save: the disk holding ${dataDir} is full. Free space and save again.`,
      `Free space on the disk holding ${dataDir}, then save again; nothing was changed.`,
    );
  if (code === 'EROFS')
    return new AppError(
      'permanent',
      `Could not save: ${dataDir} is on a read-only disk. Nothing was changed.`,
      `Make ${dataDir} writable (or start Egress Desk with a data folder on a writable disk), then save again.`,
    );
  return new AppError(
    'permanent',
    `Could not save: Egress Desk may not write to ${dataDir}. Nothing was changed.`,
    `Give your user write access to ${dataDir}, then save again.`,
  );
}

/** What the app says when it read an older version's profile file it cannot upgrade (that would write it). */
export function notUpgradedProblem(code: string, dataDir: string): StoreProblem {
  return {
    message:
      `Egress Desk cannot write its data folder: ${whyUnwritable(code, dataDir)}. Your saved clusters were read from a profile file an older version wrote; ` +
      `it is upgraded at the first save, so ${code === 'ENOSPC' ? 'free space' : 'make the folder writable'} first. Nothing was moved or changed.`,
  };
}

/**
 * What a save says when writing `file` failed: why the folder cannot be written (saveFailure), or that the file
 * was not written and nothing changed. The one wording for every file a save writes (the profiles with the
 * settings, the webhook targets), so a full disk never reaches the user as an internal error.
 */
export function writeFailure(err: unknown, dataDir: string, file: { what: string; path: string | undefined }): AppError {
  const unwritable = saveFailure(err, dataDir);
  if (unwritable) return unwritable;
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'error';
  return new AppError(
    'transient',
    `${file.what} could not be written (${code}); nothing was changed.`,
    `Check that ${file.path ?? 'the data folder'} is writable and the disk is not full, then try again.`,
  );
}

/**
 * A store that starts in memory (empty, or with the document read) and opens the real file on the first write: the data folder is made (0700)
 * and the file opened then, so a save after space was freed lands on disk. A failed write changes nothing and is
 * tried again at the next one.
 */
export function deferredDocumentStore(
  dataDir: string,
  fileName: string,
  open: () => DocumentStore,
  initial?: Record<string, unknown>,
): DocumentStore {
  let real: DocumentStore | undefined;
  const pending = memoryDocumentStore(initial);
  return {
    get path() {
      return real?.path ?? join(dataDir, fileName);
    },
    read: () => (real ?? pending).read(),
    write(doc) {
      if (!real) {
        makeDataDir(dataDir);
        real = open();
      }
      real.write(doc);
    },
  };
}
