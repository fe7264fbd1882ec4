/**
 * The profile store in a data folder the app cannot write (issue 10; the
 * words are main/files/unwritable.ts's). A fresh install in that state still
 * starts: with no profile file yet there is nothing to lose, so the app
 * starts empty (the built-in demo works), says so, and writes the file at the
 * first save; an older version's file is read as upgraded, written later.
 */
import { join } from 'node:path';
import type { StoreProblem } from '../../../shared/domain/profile';
import { makeDataDir, whyUnwritable } from '../../files/unwritable';
import { memoryDocumentStore, type DocumentStore } from './document-store';

/** What the app says when it starts without a profile file it can write. */
export function startedEmptyProblem(code: string, dataDir: string): StoreProblem {
  return {
    message:
      `Egress Desk cannot write its data folder: ${whyUnwritable(code, dataDir)}. It started with no saved clusters (the built-in demo still works); ` +
      `saving a cluster writes the folder then, so ${code === 'ENOSPC' ? 'free space' : 'make it writable'} first.`,
  };
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
