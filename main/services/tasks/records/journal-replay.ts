/**
 * Replaying the journal: the file read line by line, each line's fields merged
 * into its task, every line and every task checked against the schema. What
 * fails is returned as it was on disk (for the `.corrupt` copy); a last line
 * cut short by a crash mid-write is dropped (logged at info): its fsync never
 * returned, so nothing it described was sent.
 */
import { readFileSync } from 'node:fs';
import type { Logger } from '../../../log/logger';
import { cutShort, parseLine, TaskRecordSchema } from './journal-schema';
import type { TaskRecord } from './task-record';

export interface Replayed {
  tasks: Map<string, TaskRecord>;
  /** Lines that failed the schema, as they were on disk; or, when not one line was readable, the whole file. */
  bad: Buffer[];
  whole: boolean;
  /** Bytes up to the end of the last whole line. */
  wholeLength: number;
  /** What follows the last newline: nothing, a line cut short (dropped), or a line that needs its newline. */
  tail: 'none' | 'cut' | 'unterminated';
}

/** The journal at `path` replayed; a missing file is an empty journal, any other read failure throws. */
export function replay(path: string, log: Logger): Replayed {
  const tasks = new Map<string, TaskRecord>();
  let data: Buffer;
  try {
    data = readFileSync(path);
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
      if (tail === 'cut') log.info('task journal: dropped its last line, cut short by a crash mid-write', { bytes: raw.length });
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
