/**
 * What browser mode keeps between runs so an open page survives a restart of
 * the host: the port it listened on and its run key, in `browser-host.json`
 * in the data folder (0600, like the rest of the folder). The next run
 * listens on the same port with the same key, and the page's bridge, which
 * keeps reconnecting, finds it without a reload. A page cannot read files, so
 * this is the one way it can follow a restart.
 *
 * If the port is taken by then, the host takes a new one and prints the new
 * URL; a page on the old port cannot follow (it says it is not connected).
 * `EGRESS_DESK_NEW_KEY=1`, or deleting the file, makes a new key: every page
 * holding the old one is then refused.
 *
 * A data folder that cannot be written (read-only, full) does not stop the
 * host: the port and key are then not kept, and keepRunState says so in words.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../files/data-dir';
import { unwritableCode, whyUnwritable } from '../files/unwritable';

export const RUN_STATE_FILE = 'browser-host.json';

export interface RunState {
  port: number;
  key: string;
}

/** A run key as newRunKey makes it: 32 random bytes, base64url. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The previous run's port and key, or undefined when there is none or the file is not one this version wrote. */
export function readRunState(dataDir: string): RunState | undefined {
  const path = join(dataDir, RUN_STATE_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunState> | null;
    if (!raw || typeof raw.key !== 'string' || !KEY_PATTERN.test(raw.key)) return undefined;
    const port = Number.isInteger(raw.port) && raw.port! > 0 && raw.port! < 65536 ? raw.port! : 0;
    return { port, key: raw.key };
  } catch {
    return undefined;
  }
}

/** Keeps this run's port and key for the next run, private to the user. */
export function writeRunState(dataDir: string, state: RunState): void {
  writePrivateFileAtomic(join(dataDir, RUN_STATE_FILE), new TextEncoder().encode(`${JSON.stringify(state)}\n`));
}

/**
 * Keeps this run's port and key when the folder can be written; otherwise answers what the user must know: they are
 * not kept, why, and what that means for a page left open. Never throws.
 */
export function keepRunState(dataDir: string, state: RunState): { kept: true } | { kept: false; reason: string; notice: string } {
  try {
    writeRunState(dataDir, state);
    return { kept: true };
  } catch (e) {
    const code = unwritableCode(e);
    const reason = code ? whyUnwritable(code, dataDir) : `${RUN_STATE_FILE} could not be written (${(e as Error).message})`;
    return {
      kept: false,
      reason,
      notice:
        `The port and run key are not kept for the next run: ${reason}. ` +
        'After a restart, open the URL it prints then; a page left open will not reconnect by itself.',
    };
  }
}

/** Whether a failure to listen is the port being taken (then a stored port is given up for a new one). */
export function portTaken(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}
