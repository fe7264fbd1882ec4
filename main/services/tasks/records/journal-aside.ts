/**
 * Keeping unreadable journal lines aside: appended byte for byte to
 * `tasks.jsonl.corrupt` beside the journal (0600, fsync'd), so the journal may
 * be compacted without them only once they are safe there.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync } from 'node:fs';
import type { Logger } from '../../../log/logger';
import { openPrivateFile, writeAll } from '../../../files/data-dir';
import { describe } from './journal-failure';

/** Where unreadable lines are kept, beside the journal: `tasks.jsonl.corrupt`. */
export const CORRUPT_SUFFIX = '.corrupt';

/**
 * Appends unreadable lines to the `.corrupt` copy of the journal at `path`. `safe` when they are there (or there were
 * none); `report` is what the user is told, if anything.
 */
export function keepAside(path: string, bad: Buffer[], whole: boolean, log: Logger): { safe: boolean; report?: string } {
  if (bad.length === 0) return { safe: true };
  const copy = path + CORRUPT_SUFFIX;
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
    log.error('task journal: unreadable lines could not be kept aside; the journal is left as it is', {
      lines: bad.length,
      path,
      reason: describe(e),
    });
    return {
      safe: false,
      report: `${n} and could not be copied aside (${describe(e)}); ${whole ? 'it was' : 'they were'} skipped and left in ${path}.`,
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  log.warn('task journal: skipped unreadable lines and kept them aside', { lines: bad.length, keptIn: copy });
  return {
    safe: true,
    report: `${n} and kept in ${copy}; ${whole ? 'the task list starts empty' : 'the tasks they described are not listed'}.`,
  };
}
