/**
 * Issue 24 §3: where a text the user asked for (an export of their proxies)
 * is saved: the desktop asks where, through its own save dialog
 * (main/electron/save-dialog.ts), and the file is written 0600 (it may hold
 * passwords). Browser mode has no dialog in main: the window downloads the
 * text itself, so its saver refuses, in words. A port of its own (main/ports).
 */
import { writeFile } from 'node:fs/promises';
import { AppError } from '../errors/app-error';
import { saveFailure } from '../files/unwritable';

export interface FileSaver {
  /** Asks where to save `text` (offering `suggestedName`) and writes it there; undefined when the user cancelled. */
  save(suggestedName: string, text: string): Promise<string | undefined>;
}

/** Browser mode, and Node without a window: no save dialog here. */
export const noFileSaver: FileSaver = {
  save: async () => {
    throw new AppError(
      'permanent',
      'This window cannot open a save dialog in Egress Desk.',
      'Use Download (browser mode saves through the browser) or Copy, then paste the text into a file.',
    );
  },
};

/** Writes the text at `path` for the user alone (0600), a full or read-only disk said in words. */
export async function writePrivateText(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, { mode: 0o600 });
  } catch (err) {
    throw (
      saveFailure(err, path) ??
      new AppError('permanent', `Could not save ${path}: ${(err as Error).message}.`, 'Pick another folder and save again.')
    );
  }
}
