/**
 * Node's built-in SQLite (`node:sqlite`, DatabaseSync), loaded without its
 * ExperimentalWarning reaching the user's console.
 *
 * Why the built-in: it exists in plain Node 22.13+ without a flag (the tests
 * and benches run on Node 22.23, which bundles SQLite 3.51) and in the Node
 * inside Electron 45, which is the Node 24 line, 24.18 or later: Electron 40
 * moved from Node 22.20.0 to 24.11.1 (electronjs.org/blog/electron-40-0),
 * 43.1.0 is on 24.18.0 (electron/electron release notes v43.1.0), and
 * electron-vite 6 builds main for node24.18 for Electron 44 and later
 * (getElectronNodeTarget). Electron's binary is not installed on the build
 * machine, so the exact 45.x patch was not read from it. Electron's Node has
 * shipped node:sqlite since electron/electron#47706 (July 2025, "Fixed an
 * issue where require('node:sqlite') didn't work"). No native driver has to be
 * rebuilt for two ABIs. A runtime without it gets a thrown Error here, never
 * an undefined module.
 *
 * Node marks the module experimental and emits one ExperimentalWarning the
 * first time it is loaded (lib/sqlite.js: emitExperimentalWarning('SQLite')).
 * We drop exactly that warning and pass every other one through.
 */
import type * as Sqlite from 'node:sqlite';

export type SqliteModule = typeof Sqlite;
export type { DatabaseSync, StatementSync } from 'node:sqlite';

let loaded: SqliteModule | undefined;

/** True for the one warning node:sqlite emits at load ("SQLite is an experimental feature ..."). */
export function isSqliteExperimentalWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : typeof typeOrOptions === 'object' && typeOrOptions !== null
        ? (typeOrOptions as { type?: unknown }).type
        : undefined;
  const message = warning instanceof Error ? warning.message : String(warning);
  const name = warning instanceof Error ? warning.name : type;
  return (type === 'ExperimentalWarning' || name === 'ExperimentalWarning') && /^SQLite is an experimental feature/.test(message);
}

export function loadSqlite(): SqliteModule {
  if (loaded) return loaded;
  const original = process.emitWarning;
  process.emitWarning = function filtered(this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    return (original as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    loaded = process.getBuiltinModule('node:sqlite') as SqliteModule | undefined;
  } finally {
    process.emitWarning = original;
  }
  if (!loaded?.DatabaseSync) throw new Error(`node:sqlite is not available in Node ${process.version}`);
  return loaded;
}
