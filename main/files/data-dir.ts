/**
 * Where browser mode keeps its data (EGRESS_DESK_DATA_DIR, else
 * `egress-desk` in the user's config folder), and how every part of the
 * data folder stays private to the user: folders 0700, files 0600, set
 * explicitly with chmod (a umask only ever takes bits away, and a folder or
 * file made by an older version keeps whatever mode it was made with).
 */
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function browserModeDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.EGRESS_DESK_DATA_DIR) return env.EGRESS_DESK_DATA_DIR;
  const config =
    platform === 'win32'
      ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return join(config, 'egress-desk');
}

/** Creates `dir` (and its missing parents) 0700, and makes an existing one 0700. Throws what mkdir or chmod throws. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // Only when it differs: a chmod on a read-only disk fails even when it would change nothing.
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Opens (creating) a file 0600, whatever the umask, and whatever mode an existing file had. */
export function openPrivateFile(path: string, flags: 'a' | 'w' | 'wx'): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  if (process.platform !== 'win32') {
    try {
      if ((fstatSync(fd).mode & 0o777) !== PRIVATE_FILE_MODE) fchmodSync(fd, PRIVATE_FILE_MODE);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }
  return fd;
}

/** Makes an existing file 0600 if it is not; a file that is not there, or a read-only disk, is left as it is. */
export function makeFilePrivate(path: string): void {
  if (process.platform === 'win32') return;
  try {
    if ((statSync(path).mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  } catch {
    // Not there yet (the first write creates it 0600), or not ours to change.
  }
}

/** Writes every byte (a write may be short: a disk filling up takes part of it, then refuses the rest). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) {
    const n = writeSync(fd, bytes, done, bytes.length - done);
    if (n <= 0) throw Object.assign(new Error('no byte was written'), { code: 'ENOSPC' });
    done += n;
  }
}

/**
 * Replaces `path` with `bytes` atomically and durably, 0600: a temporary file
 * beside it, fsync'd, then renamed over. On any failure the temporary file is
 * removed and `path` is left as it was.
 */
export function writePrivateFileAtomic(path: string, bytes: Uint8Array, flags: 'w' | 'wx' = 'w'): void {
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  let fd: number | undefined;
  try {
    fd = openPrivateFile(tmp, 'w');
    writeAll(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    // `wx`: only if nothing is there yet (a link fails with EEXIST), so a second writer keeps the first one's file.
    if (flags === 'wx') {
      linkSync(tmp, path);
      rmSync(tmp, { force: true });
    } else {
      renameSync(tmp, path);
    }
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDir(dirname(path));
}

/** A rename is durable only once the directory entry is. Not every platform can fsync a directory. */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot open a directory; its rename is already durable enough for these files.
  }
}

/**
 * The files and folders of ours a data folder may hold (the Electron shell's `logs` folder is in it on Linux and
 * Windows); another program's (Chromium's own) are left alone.
 */
const ours = /^(profiles\.json|profiles\.corrupt-.*\.json|vault\.key|tasks|logs|checks\.json|checks\.corrupt-.*\.json)$/;

/**
 * Makes the data folder and what this app keeps in it private: the folder,
 * the profile file and its kept-aside copies, the vault key, and the task
 * and log folders with everything in them. Symbolic links are neither followed nor
 * changed. Errors (a read-only folder) are returned, not thrown: the app
 * still starts, and says what it could not do.
 */
export function securePrivateDataDir(dataDir: string): { error?: NodeJS.ErrnoException } {
  try {
    ensurePrivateDir(dataDir);
    if (process.platform === 'win32') return {};
    const walk = (dir: string, all: boolean) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (!all && !ours.test(entry.name)) continue;
        const path = join(dir, entry.name);
        const mode = entry.isDirectory() ? PRIVATE_DIR_MODE : entry.isFile() ? PRIVATE_FILE_MODE : undefined;
        if (mode === undefined) continue;
        if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
        if (entry.isDirectory()) walk(path, true);
      }
    };
    walk(dataDir, false);
    return {};
  } catch (e) {
    return { error: e as NodeJS.ErrnoException };
  }
}
