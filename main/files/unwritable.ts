/**
 * A data folder the app cannot write, in words (issue 10): the disk is full,
 * it is read-only, or the user may not write there. Every area that writes
 * the data folder (profiles and settings, the history, the webhook targets,
 * browser mode's run state) says it the same way, classified, and "nothing
 * was changed" where a save failed.
 */
import { mkdirSync } from 'node:fs';
import { AppError } from '../errors/app-error';
import { ensurePrivateDir } from './data-dir';

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
