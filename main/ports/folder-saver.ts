/**
 * Issue 26: where a bundle of files the user asked for (the hand-off to the
 * Kubernetes operator) is saved: the desktop's save dialog names a new
 * folder (main/electron/save-dialog.ts), made 0700, each file written 0600
 * and never over an existing one (it may hold a password). Browser mode has
 * no dialog in main, so its saver refuses, in words. A port of its own.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { AppError } from '../errors/app-error';
import { saveFailure } from '../files/unwritable';

export interface FolderFile {
  /** Relative, `/`-separated, no `..`. */
  path: string;
  content: string;
}

export interface FolderSaver {
  /** Asks for a new folder (offering `suggestedName`) and writes the files into it; undefined when the user cancelled. */
  saveFolder(suggestedName: string, files: readonly FolderFile[]): Promise<string | undefined>;
}

export const noFolderSaver: FolderSaver = {
  saveFolder: async () => {
    throw new AppError('permanent', 'This window cannot open a save dialog in Egress Desk, so the bundle cannot be saved from here.', 'Open the desktop app to save the hand-off bundle.');
  },
};

/** Makes `dir` (it must not exist) 0700 and writes each file 0600 inside it. */
export async function writePrivateFolder(dir: string, files: readonly FolderFile[]): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new AppError('invalid-input', `${dir} already exists, and Egress Desk does not write a bundle into an existing folder.`, 'Pick a new folder name and save again.');
    throw saveFailure(err, dir) ?? new AppError('permanent', `Could not make the folder ${dir}: ${(err as Error).message}.`, 'Pick another place and save again.');
  }
  try {
    for (const f of files) {
      const target = normalize(join(dir, ...f.path.split('/')));
      if (!target.startsWith(dir + sep) || f.path.split('/').includes('..')) throw new Error(`a file path outside the folder: ${f.path}`);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, f.content, { mode: 0o600, flag: 'wx' });
      await chmod(target, 0o600); // whatever the umask
    }
  } catch (err) {
    throw saveFailure(err, dir) ?? new AppError('permanent', `Could not save the bundle in ${dir}: ${(err as Error).message}.`, 'Pick another place and save again.');
  }
}
