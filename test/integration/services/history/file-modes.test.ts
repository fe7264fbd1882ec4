/**
 * The history's files are readable by this user only (0600), whatever the
 * umask, while the app runs: history.sqlite and the -wal and -shm SQLite
 * makes beside it on the first run, ones an older version left 0644, a bad
 * file moved aside, and every file the composed app writes in a fresh data
 * folder (folders 0700).
 *
 * Runs as root here too: root reads any file, but the mode bits still show
 * with stat, and another user's process is what they keep out. Skipped, saying
 * why, where the file system keeps no Unix modes (Windows, FAT).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import { loadSqlite } from '../../../../main/services/history/sqlite-module';

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'egress-history-modes-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Why modes cannot be checked here, or undefined when they can (a 0640 chmod must read back as 0640). */
function modesUnavailable(): string | undefined {
  if (process.platform === 'win32') return 'Windows keeps no Unix file modes';
  const dir = mkdtempSync(join(tmpdir(), 'egress-mode-probe-'));
  try {
    const probe = join(dir, 'probe');
    writeFileSync(probe, '');
    chmodSync(probe, 0o640);
    const mode = statSync(probe).mode & 0o777;
    return mode === 0o640
      ? undefined
      : `the temporary folder's file system keeps no Unix modes (a 0640 chmod reads back ${mode.toString(8)})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const skipReason = modesUnavailable();
if (skipReason) console.log(`SKIPPED history file modes: ${skipReason}`);

/** Every file and folder under `dir` with its mode, as `0600 name`. */
function modes(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      const line = `${(statSync(path).mode & 0o777).toString(8).padStart(4, '0')} ${prefix}${entry.name}`;
      return entry.isDirectory() ? [line, ...modes(path, `${prefix}${entry.name}/`)] : [line];
    });
}

const check = { clusterId: 'home', vmid: 105, at: NOW, ok: true, origin: 'scheduled' } as const;

describe.skipIf(skipReason !== undefined)('history file modes', () => {
  it('history.sqlite and the -wal and -shm SQLite makes on the first run are 0600 while the app writes', () => {
    const dir = freshDir();
    const store = openHistoryDatabase({ file: join(dir, 'history.sqlite'), logger: createMemoryLogger(), now: () => NOW });
    cleanups.push(() => store.close());
    store.recordCheck(check);
    store.flush();
    expect(modes(dir)).toEqual(['0600 history.sqlite', '0600 history.sqlite-shm', '0600 history.sqlite-wal']);
  });

  it('a -wal and -shm an older version left 0644 are made 0600 when the history opens', () => {
    const dir = freshDir();
    const file = join(dir, 'history.sqlite');
    // An older version's session still holding the file: its WAL and shared memory are there, 0644.
    const { DatabaseSync } = loadSqlite();
    const older = new DatabaseSync(file);
    cleanups.push(() => older.close());
    older.exec('PRAGMA journal_mode = WAL');
    older.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
    expect(modes(dir)).toEqual(['0644 history.sqlite', '0644 history.sqlite-shm', '0644 history.sqlite-wal']);

    const store = openHistoryDatabase({ file, logger: createMemoryLogger(), now: () => NOW });
    cleanups.push(() => store.close());
    store.recordCheck(check);
    store.flush();
    expect(modes(dir)).toEqual(['0600 history.sqlite', '0600 history.sqlite-shm', '0600 history.sqlite-wal']);
  });

  it('a bad file moved aside, and the fresh one made in its place, are 0600', () => {
    const dir = freshDir();
    const file = join(dir, 'history.sqlite');
    writeFileSync(file, 'not a database, written by another program with the umask it had');
    chmodSync(file, 0o644);
    const store = openHistoryDatabase({ file, logger: createMemoryLogger(), now: () => NOW });
    cleanups.push(() => store.close());
    store.recordCheck(check);
    store.flush();
    expect(store.status().movedAside).toBeDefined();
    expect(modes(dir)).toEqual([
      '0600 history.sqlite',
      '0600 history.sqlite-shm',
      '0600 history.sqlite-wal',
      expect.stringMatching(/^0600 history\.sqlite\.corrupt-[\dTZ-]+$/),
    ]);
  });

  it('every file the app writes in a fresh data folder is 0600 and every folder 0700 while it runs', async () => {
    const dataDir = freshDir();
    const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo: 'off' });
    cleanups.push(() => app.dispose());
    app.history.recordCheck({ ...check, at: Date.now() });
    app.history.flush();
    const saved = await app.router.dispatch(
      'settings.set',
      { settings: { historyRetentionDays: 7 } },
      { signal: new AbortController().signal, transport: 'test' },
    );
    expect(saved.ok).toBe(true);
    const listed = modes(dataDir);
    // What a fresh folder holds once the app has written history and a setting (so the test sees every kind of file).
    expect(listed.map((line) => line.slice(5))).toEqual(
      expect.arrayContaining(['history.sqlite', 'history.sqlite-wal', 'profiles.json', 'tasks']),
    );
    const wrong = listed.filter((line) => {
      const isDir = statSync(join(dataDir, line.slice(5))).isDirectory();
      return !line.startsWith(isDir ? '0700 ' : '0600 ');
    });
    expect(wrong).toEqual([]);
  });
});
