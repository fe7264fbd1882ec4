/**
 * axe-core in a playwright page, for the accessibility checks of the e2e
 * suite. The app's Content Security Policy allows no inline script, so axe's
 * source is not added as a <script> tag (which the policy would refuse, and
 * rightly): it is evaluated through the DevTools protocol, as playwright's
 * `page.evaluate` does, which the page's policy does not govern. Nothing about
 * the app or its policy is loosened for the test.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result, RunOptions } from 'axe-core';

const require = createRequire(import.meta.url);
let source: string | undefined;
const axeSource = () => (source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** Loads axe into the page once (a navigation drops it; it is loaded again). */
async function injectAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource());
}

/** Runs axe over the whole document (or `include`, a selector) with the WCAG 2.1 A/AA rules (or `tags`); returns the violations. */
export async function axeViolations(page: Page, include?: string, tags: string[] = WCAG_TAGS): Promise<AxeViolation[]> {
  await injectAxe(page);
  const options: RunOptions = { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] };
  const results = await page.evaluate(
    async ([context, opts]) => {
      const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResults> } }).axe;
      const r = await axe.run(context ?? document, opts);
      return r.violations;
    },
    [include ?? null, options] as const,
  );
  return results.map((v: Result) => ({
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({
      target: n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' '),
      summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    })),
  }));
}

/** One readable block per violation: rule, impact, what it asks, and each element with why it fails. */
export function formatViolations(where: string, violations: AxeViolation[]): string {
  if (violations.length === 0) return `${where}: no violations`;
  const lines = [`${where}: ${violations.length} violation${violations.length === 1 ? '' : 's'}`];
  for (const v of violations) {
    lines.push(`  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const n of v.nodes.slice(0, 8)) lines.push(`    - ${n.target}\n      ${n.summary}`);
    if (v.nodes.length > 8) lines.push(`    … and ${v.nodes.length - 8} more`);
  }
  return lines.join('\n');
}
