/**
 * Where e2e screenshots go. A test run writes them under
 * test-results/screenshots/ (git ignores it), so `npm test` leaves the tree
 * as it found it. `npm run screenshots` sets EGRESS_DESK_DOC_SCREENSHOTS=1:
 * then the pictures the docs show (DOC_PICTURES, the files in
 * docs/screenshots/) are written there instead; the others stay in
 * test-results/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..');
export const resultsDir = join(repo, 'test-results', 'screenshots');
export const docsDir = join(repo, 'docs', 'screenshots');

/** The pictures in docs/screenshots/ (README, docs/*.md); a test checks this list against the folder. */
export const DOC_PICTURES: ReadonlySet<string> = new Set([
  'alerts-light.png',
  'cleanup-light.png',
  'create-light.png',
  'demo-builder-1280-light.png',
  'first-run-1.png',
  'first-run-2.png',
  'first-run-3.png',
  'first-run-4.png',
  'nodes-dark.png',
  'overview-1024-dark.png',
  'overview-1024-light.png',
  'overview-dark.png',
  'overview-light.png',
  'proxies-1024-dark.png',
  'proxies-1024-light.png',
  'proxies-1280-dark.png',
  'proxies-1280-light.png',
  'proxies-dark.png',
  'proxies-light.png',
  'proxies-row-menu-light.png',
  'proxy-checks-light.png',
  'rrd-drawer-dark.png',
  'settings-dark.png',
  'task-panel.png',
  'tasks-dark.png',
  'template-builder-1.png',
  'template-builder-2.png',
  'template-builder-3.png',
  'template-builder-4.png',
  'template-builder-5.png',
  'template-builder-6.png',
  'templates-light.png',
  'wizard-privileges-light.png',
]);

/** Set by `npm run screenshots`. */
export const DOC_SCREENSHOTS_ENV = 'EGRESS_DESK_DOC_SCREENSHOTS';

export function screenshotPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[DOC_SCREENSHOTS_ENV] === '1' && DOC_PICTURES.has(name) ? docsDir : resultsDir;
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
