/**
 * A small JSON file of the app's own in the data folder (per-proxy records,
 * check switches, webhook targets): read and checked against its schema, or
 * set aside as `<name>.corrupt-<time>.json` when it cannot be read or does not
 * parse, so the app starts without it instead of refusing to start, and the
 * admin can still look at what was there. Written atomically, 0600.
 */
import { readFileSync, renameSync } from 'node:fs';
import type { z } from 'zod';
import type { Logger } from '../log/logger';
import { writePrivateFileAtomic } from './data-dir';

/** The file's content, or undefined when there is none or it was set aside (logged with where it went). */
export function readPrivateJson<T>(path: string, schema: z.ZodType<T>, log: Logger): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return setAside(path, log, `unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return setAside(path, log, 'not JSON');
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : setAside(path, log, 'not the expected shape');
}

export function writePrivateJson(path: string, body: unknown): void {
  writePrivateFileAtomic(path, Buffer.from(`${JSON.stringify(body, null, 2)}\n`, 'utf8'));
}

function setAside(path: string, log: Logger, reason: string): undefined {
  const aside = `${path.replace(/\.json$/, '')}.corrupt-${Date.now()}.json`;
  try {
    renameSync(path, aside);
  } catch {
    // Left where it is: the next save replaces it.
  }
  log.warn('file set aside; starting without it', { file: path, movedTo: aside, reason });
  return undefined;
}
