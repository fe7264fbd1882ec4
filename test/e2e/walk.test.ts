/**
 * Issue 23's proof walk: every view and every dialog, at 1024×700 and
 * 1280×800, in the light and the dark theme, in Chromium against the
 * simulated demo cluster and a second simulated cluster connected through
 * the wizard (the template builder needs one the app may change). At each
 * place the page must show nothing off screen sideways, no text over other
 * text or covered, nothing spilling out of a table cell
 * (support/layout-check.ts), and axe-core must find nothing, best practices
 * included (one `contentinfo` landmark, not one per dialog footer).
 *
 * Places in areas other branches of issue 23 fix are listed in
 * KNOWN_WALK_FAILURES with their issue item: what they fail is printed, not
 * failed on. An entry whose place walks clean is printed as such, for the
 * integrator to remove once that branch has landed.
 *
 * Each place's picture lands in test-results/screenshots/walk-<place>-<width>-<theme>.png
 * (the docs' pictures stay with the tests that write them), and every
 * finding, known or not, in test-results/walk-report.txt. Over 300 lines: every place of the
 * walk is in the one list below, so a new dialog cannot be left out of it in another file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../main/simulator';
import { axeViolations, WCAG_TAGS } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { pageLayoutProblems, type LayoutProblemKind } from '../support/layout-check';
import { resultsDir, screenshotPath } from '../support/screenshots';

type Check = LayoutProblemKind | 'axe';

/** One thing the walk found: a layout problem, or an element axe faults under one rule. */
interface Finding {
  check: Check;
  /** The element (layout), or the axe rule and the element (`region .toasts`). */
  what: string;
  text: string;
}

interface KnownFailure {
  /** The place, as the walk names it, or '*' for every place. */
  place: string;
  check: Check;
  /** Which findings of that check (matched against `what`); all of them when absent. */
  what?: RegExp;
  /** Issue 23's item that fixes it, on another branch. */
  item: string;
  /** What a person meets. */
  why: string;
}

/**
 * Failures the walk knows of, each with the issue item that fixes it: printed,
 * not failed on. Empty since every item of issue 23 landed; an entry added
 * later names its item, and the walk prints an entry that matches nothing.
 */
export const KNOWN_WALK_FAILURES: KnownFailure[] = [];

const poll = { timeout: 30_000 };
const firstProxy = 'proxy-a7k2m9x4q1w8e5r3t6';
const sizes = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
] as const;
const themes = ['light', 'dark'] as const;

let sim: Simulator;
const setup: E2eOptions = {
  before: async () => {
    sim = await startSimulator({ dataset: 'minimal', timeScale: 0.01 });
  },
  host: { ...demoHost, monitoring: { health: { intervalMs: 500 }, inventory: { visibleIntervalMs: 500 } } },
  viewport: sizes[1],
  after: async () => sim?.close(),
};

/** One place of the walk: how to get there from the views (no dialog open), and what to check (a modal dialog: itself). */
interface Place {
  name: string;
  open(page: Page): Promise<void>;
  /** A selector for the part to check: a modal dialog covers the rest with its backdrop. */
  root?: string;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: new RegExp(`^${name}`) });
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first();
const view = (name: string, ready: (page: Page) => Promise<unknown>): Place => ({
  name,
  async open(page) {
    await nav(page, name).click();
    await expect.poll(() => heading(page).textContent(), poll).toBe(name);
    await ready(page);
  },
});
const dialog = (name: string, title: string | RegExp, open: (page: Page) => Promise<void>): Place => ({
  name,
  root: '[role="dialog"]',
  async open(page) {
    await open(page);
    await expect.poll(() => page.getByRole('dialog', { name: title }).count(), poll).toBe(1);
  },
});
const openProxies = async (page: Page) => {
  await nav(page, 'Proxies').click();
  await expect.poll(() => page.getByRole('button', { name: `Details of ${firstProxy}` }).count(), poll).toBe(1);
};
const rowAction = (action: string) => async (page: Page) => {
  await openProxies(page);
  await page.getByRole('button', { name: `Actions for ${firstProxy}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
};

const places: Place[] = [
  view('Overview', (page) => expect.poll(() => page.getByRole('article', { name: 'Node pv1-1' }).first().count(), poll).toBe(1)),
  view('Nodes', (page) => expect.poll(() => page.getByRole('table', { name: 'Nodes' }).getByRole('row').count(), poll).toBeGreaterThan(3)),
  {
    name: 'Node pv1-1',
    async open(page) {
      await nav(page, 'Nodes').click();
      // The second cluster has a pv1-1 too: the demo's is listed first.
      await page.getByRole('button', { name: 'pv1-1', exact: true }).first().click();
      await expect.poll(() => page.getByRole('table', { name: 'Storages of pv1-1' }).count(), poll).toBe(1);
    },
  },
  view('Templates', (page) => expect.poll(() => page.getByRole('table', { name: /^Template catalogue of / }).count(), poll).toBe(1)),
  dialog('Template builder', /^Build a template on /, async (page) => {
    await nav(page, 'Templates').click();
    await page.getByRole('combobox', { name: 'Cluster' }).selectOption({ label: 'lab-walk' });
    await page.getByRole('button', { name: 'Build a template' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Preflight' }).count(), poll).toBe(1);
  }),
  view('Proxies', (page) => expect.poll(() => page.getByRole('button', { name: `Details of ${firstProxy}` }).count(), poll).toBe(1)),
  {
    name: 'Proxy drawer',
    async open(page) {
      await openProxies(page);
      await page.getByRole('button', { name: `Details of ${firstProxy}` }).click();
      await expect
        .poll(
          () =>
            page
              .getByRole('complementary', { name: `Details of ${firstProxy}` })
              .getByRole('region', { name: 'Mark' })
              .count(),
          poll,
        )
        .toBe(1);
    },
  },
  dialog('Create proxy', 'Create proxy', async (page) => {
    await openProxies(page);
    await page.getByRole('button', { name: 'New proxy' }).click();
    await expect
      .poll(() => page.getByRole('dialog', { name: 'Create proxy' }).getByLabel('Template').inputValue(), poll)
      .toBe('debian-13-template');
  }),
  // Issue 24: the Network section open, with a static address (its fields in the two-column grid).
  dialog('Create proxy, network', 'Create proxy', async (page) => {
    await openProxies(page);
    await page.getByRole('button', { name: 'New proxy' }).click();
    const create = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => create.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
    await create.getByText('Network:').click();
    await expect.poll(() => create.getByRole('combobox', { name: 'Bridge' }).locator('option').count(), poll).toBeGreaterThan(1);
    await create.getByRole('combobox', { name: 'Addresses' }).selectOption('static');
    await create.getByRole('textbox', { name: 'IPv4 address' }).fill('192.168.20.5/24');
    await create.getByRole('textbox', { name: 'IPv4 gateway' }).fill('192.168.21.1');
  }),
  dialog('Delete confirmation', 'Delete 1 proxy?', async (page) => {
    await openProxies(page);
    await page.getByRole('checkbox', { name: `Select ${firstProxy}` }).check();
    await page.getByRole('grid', { name: 'Proxies' }).click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Delete');
  }),
  dialog('Export dialog', 'Export proxies', async (page) => {
    await openProxies(page);
    await page.getByRole('checkbox', { name: `Select ${firstProxy}` }).check();
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Export…' }).click();
  }),
  dialog('Migrate dialog', `Migrate ${firstProxy}`, rowAction('Migrate…')),
  dialog('Reconfigure dialog', `Reconfigure ${firstProxy}`, rowAction('Reconfigure…')),
  dialog('Reconfigure dialog, network', `Reconfigure ${firstProxy}`, async (page) => {
    await rowAction('Reconfigure…')(page);
    await page.getByRole('checkbox', { name: /Move to another bridge or VLAN/ }).check();
    await page.getByRole('textbox', { name: 'VLAN tag' }).fill('5000');
  }),
  dialog('Recreate dialog', `Recreate ${firstProxy}?`, rowAction('Recreate…')),
  dialog('Console dialog', `Console of ${firstProxy}`, rowAction('Console')),
  dialog('Reboot confirmation', `Reboot ${firstProxy}?`, rowAction('Reboot')),
  view('Tasks', (page) => expect.poll(() => page.getByRole('article', { name: /^Task / }).count(), poll).toBeGreaterThan(0)),
  view('Cleanup', (page) => expect.poll(() => page.getByRole('combobox', { name: 'Cluster' }).inputValue(), poll).not.toBe('')),
  {
    name: 'Cleanup after a scan',
    async open(page) {
      await nav(page, 'Cleanup').click();
      await expect.poll(() => page.getByRole('combobox', { name: 'Cluster' }).inputValue(), poll).not.toBe('');
      // "Scan", or "Scan again" once scanned at the other size.
      await page.getByRole('button', { name: /^Scan( again)?$/ }).click();
      await expect.poll(() => page.getByRole('table', { name: 'Seeds kept' }).count(), poll).toBe(1);
    },
  },
  view('Settings', (page) =>
    expect.poll(() => page.getByRole('list', { name: 'Connected clusters' }).textContent(), poll).toContain('lab-walk'),
  ),
  dialog('Connect wizard', 'Connect a cluster', async (page) => {
    await nav(page, 'Settings').click();
    await page.getByRole('button', { name: 'Connect a cluster' }).click();
  }),
  dialog('Search (Ctrl+K)', 'Search', async (page) => {
    await heading(page).click();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('proxy');
  }),
  dialog('Shortcut help', 'Keyboard shortcuts', async (page) => {
    await heading(page).click();
    await page.keyboard.press('?');
  }),
  // The demo's pv1-3 does not answer: its alert is raised a minute or so into the session (last of the places, so the
  // walk does not wait for it).
  view('Alerts', (page) =>
    expect
      .poll(() => page.getByRole('table', { name: 'Alerts' }).getByRole('row').filter({ hasText: 'Node unreachable' }).count(), {
        timeout: 90_000,
      })
      .toBeGreaterThan(0),
  ),
];

const known = (place: string, f: Finding) =>
  KNOWN_WALK_FAILURES.find((k) => (k.place === '*' || k.place === place) && k.check === f.check && (k.what?.test(f.what) ?? true));

describeE2e('the walk: every view and dialog at two sizes, light and dark, laid out well and axe-clean', setup, ({ page }) => {
  const report: string[] = [];
  const matched = new Set<KnownFailure>();
  let walked = 0;

  const closeDialogs = async () => {
    // A place that typed into a form (issue 24's network places) is asked "Discard …?" on Escape: Discard it.
    for (let i = 0; i < 5 && (await page.getByRole('dialog').count()) > 0; i++) {
      const discard = page.getByRole('button', { name: 'Discard', exact: true });
      if ((await discard.count()) > 0) await discard.click();
      else await page.keyboard.press('Escape');
    }
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  };

  afterAll(() => {
    console.log(`[e2e walk] ${walked} checks (place, size, theme) walked; ${report.length} with findings`);
    writeFileSync(join(resultsDir, '..', 'walk-report.txt'), report.join('\n\n'));
    for (const k of KNOWN_WALK_FAILURES)
      if (!matched.has(k))
        console.log(`[e2e walk] known failure "${k.place}" ${k.check} (issue 23 item ${k.item}) matched nothing: remove it`);
  });

  it('connects a second cluster and makes a task, so that every view has something to show', async () => {
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    await nav(page, 'Settings').click();
    await page.getByRole('button', { name: 'Connect a cluster' }).click();
    const wizard = page.getByRole('dialog', { name: 'Connect a cluster' });
    const token = sim.tokens.operator!;
    await wizard.getByLabel('Cluster URL').fill(sim.url);
    await wizard.getByLabel('Token ID').fill(token.tokenId);
    await wizard.getByLabel('Token secret').fill(token.secret);
    await wizard.getByRole('button', { name: 'Check connection' }).click();
    await expect.poll(() => wizard.getByRole('heading', { name: '2. Trust the certificate' }).count(), poll).toBe(1);
    await wizard.getByRole('radio', { name: /pin its fingerprint/ }).check();
    await wizard.getByRole('button', { name: 'Trust this certificate and continue' }).click();
    await expect.poll(() => wizard.getByRole('heading', { name: '4. Choose what to use' }).count(), poll).toBe(1);
    await wizard.getByLabel('Cluster name').fill('lab-walk');
    await wizard.getByRole('button', { name: 'Save cluster' }).click();
    await expect.poll(() => wizard.count(), poll).toBe(0);

    await openProxies(page);
    await page.getByRole('button', { name: 'New proxy' }).click();
    const create = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => create.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
    await create.getByRole('textbox', { name: 'Name' }).fill('walk-one');
    await create.getByRole('button', { name: 'Create proxy' }).click();
    await expect.poll(() => heading(page).textContent(), poll).toBe('Tasks');
  });

  for (const size of sizes)
    for (const place of places)
      it(`${place.name} at ${size.width}×${size.height}, light and dark`, async () => {
        await closeDialogs();
        await page.setViewportSize(size);
        await place.open(page);
        const unknown: string[] = [];
        for (const theme of themes) {
          await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
          await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const where = `${place.name} (${size.width}×${size.height}, ${theme})`;
          const findings: Finding[] = [
            ...(await pageLayoutProblems(page, place.root)).map((p) => ({
              check: p.kind,
              what: p.what,
              text: `[${p.kind}] ${p.what}: ${p.detail}`,
            })),
            ...(await axeViolations(page, undefined, [...WCAG_TAGS, 'best-practice'])).flatMap((v) =>
              v.nodes.map((n) => ({
                check: 'axe' as const,
                what: `${v.id} ${n.target}`,
                text: `[axe ${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n    ${n.target}: ${n.summary}`,
              })),
            ),
          ];
          const lines = findings.map((f) => {
            const k = known(place.name, f);
            if (k) matched.add(k);
            else unknown.push(`${where} ${f.text}`);
            return `  ${k ? `known (item ${k.item}) ` : ''}${f.text}`;
          });
          if (lines.length > 0) report.push([`${where}:`, ...lines].join('\n'));
          await page.screenshot({
            path: screenshotPath(
              `walk-${place.name.replace(/\W+/g, ' ').trim().replace(/ /g, '-').toLowerCase()}-${size.width}-${theme}.png`,
            ),
          });
          walked++;
        }
        await closeDialogs();
        expect(unknown, unknown.join('\n')).toEqual([]);
      });
});
