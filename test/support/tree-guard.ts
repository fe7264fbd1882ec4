/**
 * A test run leaves the working tree as it found it (the brief's rule; issue
 * 22 item 14: screenshots rewrote tracked pictures in docs/screenshots/). A
 * vitest globalSetup: before the run it notes what `git status` shows and
 * the bytes of each file it lists; after the run it compares and fails the
 * run with the files a test wrote. Files git ignores (test-results/, out/)
 * are free to change. Outside a git checkout, or without git, it says so
 * and checks nothing.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DOC_PICTURES, DOC_SCREENSHOTS_ENV } from './screenshots';

/** Each path `git status` lists, with its status and a hash of its bytes (a file already dirty may be rewritten again). */
export type TreeState = Map<string, string>;

/** What git shows as changed or untracked under `root`, or why it cannot say. */
export function treeState(root: string): TreeState | { skip: string } {
  let out: string;
  try {
    out = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    const why = (e as { stderr?: string }).stderr?.trim() || (e as Error).message;
    return { skip: `not a git checkout, or git is missing (${why.split('\n')[0]})` };
  }
  const state: TreeState = new Map();
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    const path = entry.slice(3);
    // A rename or copy carries its source as the next field.
    if (status.includes('R') || status.includes('C')) i++;
    state.set(path, `${status} ${contentHash(join(root, path))}`);
  }
  return state;
}

function contentHash(file: string): string {
  if (!existsSync(file)) return 'absent';
  if (!statSync(file).isFile()) return 'not-a-file';
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The paths whose status or bytes differ between two states, sorted. */
export function treeChanges(before: TreeState, after: TreeState): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

/**
 * The changes a run may not make: all of them, except the docs' own pictures when the run is `npm run screenshots`
 * (its env writes them on purpose; it failed itself before this).
 */
export function forbiddenChanges(changed: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (env[DOC_SCREENSHOTS_ENV] !== '1') return changed;
  return changed.filter((path) => !(path.startsWith('docs/screenshots/') && DOC_PICTURES.has(path.slice('docs/screenshots/'.length))));
}

/** Why the run fails, in words: which files, and what to do. */
export function treeChangedMessage(changed: string[]): string {
  return (
    `The test run changed ${changed.length} file${changed.length === 1 ? '' : 's'} in the working tree: ${changed.join(', ')}. ` +
    'A test run must leave the tree as it found it: write under test-results/ (git ignores it) or a temporary folder; ' +
    'pictures for the docs are written by `npm run screenshots`. ' +
    '(If you edited these files yourself while the tests ran, run them again.)'
  );
}

const root = join(import.meta.dirname, '..', '..');

export default function setup(): () => void {
  const before = treeState(root);
  if (!(before instanceof Map)) {
    console.log(`[tree guard] skipped: ${before.skip}`);
    return () => {};
  }
  return () => {
    const after = treeState(root);
    if (!(after instanceof Map)) return;
    const changed = forbiddenChanges(treeChanges(before, after));
    if (changed.length === 0) return;
    // Vitest prints an error thrown here but keeps its exit code: set it, so CI fails.
    process.exitCode = 1;
    throw new Error(treeChangedMessage(changed));
  };
}
