/**
 * Issue 22 item 14: a test run leaves the working tree as it found it. The
 * guard (test/support/tree-guard.ts, the suite's globalSetup) over a real
 * git repository in a temporary folder: a tracked file rewritten, a file
 * already dirty rewritten again, a new file: each named; an ignored file is
 * free. And the e2e screenshots go under test-results/ unless
 * `npm run screenshots` asks for the docs' pictures.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOC_PICTURES, DOC_SCREENSHOTS_ENV, docsDir, resultsDir, screenshotPath } from '../../support/screenshots';
import { forbiddenChanges, treeChangedMessage, treeChanges, treeState, type TreeState } from '../../support/tree-guard';

const gitMissing = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'pipe' });
    return undefined;
  } catch {
    return 'git is not installed';
  }
})();
if (gitMissing) console.log(`[tree guard test] skipped: ${gitMissing}`);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'egress-tree-guard-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'shot.png'), 'picture one');
  writeFileSync(join(dir, 'notes.md'), 'notes');
  writeFileSync(join(dir, '.gitignore'), 'test-results/\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'start');
  return dir;
}
const state = (dir: string) => treeState(dir) as TreeState;

describe.skipIf(gitMissing !== undefined)('the tree guard', () => {
  it('names a tracked file a run rewrote, a dirty file rewritten again and a new file; an ignored file is free', () => {
    const dir = repo();
    writeFileSync(join(dir, 'notes.md'), 'edited by the developer before the run');
    const before = state(dir);
    expect(treeChanges(before, state(dir))).toEqual([]);

    writeFileSync(join(dir, 'docs', 'shot.png'), 'picture two');
    writeFileSync(join(dir, 'notes.md'), 'rewritten by a test');
    writeFileSync(join(dir, 'left-behind.txt'), 'x');
    mkdirSync(join(dir, 'test-results'));
    writeFileSync(join(dir, 'test-results', 'shot.png'), 'free');
    const changed = treeChanges(before, state(dir));
    expect(changed).toEqual(['docs/shot.png', 'left-behind.txt', 'notes.md']);
    expect(treeChangedMessage(changed)).toContain('changed 3 files in the working tree: docs/shot.png, left-behind.txt, notes.md');
    expect(treeChangedMessage(changed)).toContain('npm run screenshots');
  });

  it('a file written back with the same bytes leaves the tree as it was', () => {
    const dir = repo();
    const before = state(dir);
    writeFileSync(join(dir, 'docs', 'shot.png'), 'picture one');
    expect(treeChanges(before, state(dir))).toEqual([]);
  });

  it('outside a git checkout it says why it checks nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-tree-guard-plain-'));
    dirs.push(dir);
    expect(treeState(dir)).toEqual({ skip: expect.stringMatching(/^not a git checkout, or git is missing \(.*not a git repository/i) });
  });
});

describe('where e2e screenshots go', () => {
  it('under test-results/ in a test run, even for a picture the docs show', () => {
    expect(screenshotPath('first-run-1.png', {})).toBe(join(resultsDir, 'first-run-1.png'));
    expect(screenshotPath('template-builder-1.png', {})).toBe(join(resultsDir, 'template-builder-1.png'));
  });

  it('into docs/screenshots/ with npm run screenshots, for the docs pictures only', () => {
    const env = { [DOC_SCREENSHOTS_ENV]: '1' };
    expect(screenshotPath('first-run-1.png', env)).toBe(join(docsDir, 'first-run-1.png'));
    expect(screenshotPath('shell-dark.png', env)).toBe(join(resultsDir, 'shell-dark.png'));
  });

  it('the docs pictures are the files in docs/screenshots/', () => {
    expect([...DOC_PICTURES].sort()).toEqual(
      readdirSync(docsDir)
        .filter((f) => f.endsWith('.png'))
        .sort(),
    );
  });

  it('npm run screenshots is the one command that asks for them', async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.screenshots).toContain(`${DOC_SCREENSHOTS_ENV}=1`);
    expect(pkg.scripts.test).not.toContain(DOC_SCREENSHOTS_ENV);
  });

  it('npm run screenshots may rewrite the docs pictures, and only those; any other run may rewrite none', () => {
    const changed = ['docs/screenshots/overview-light.png', 'docs/screenshots/stray.png', 'docs/user-guide.md'];
    expect(forbiddenChanges(changed, { [DOC_SCREENSHOTS_ENV]: '1' })).toEqual(['docs/screenshots/stray.png', 'docs/user-guide.md']);
    expect(forbiddenChanges(changed, {})).toEqual(changed);
  });
});
