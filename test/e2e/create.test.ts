/**
 * Create proxy end to end, in Chromium against the simulated demo cluster:
 * one proxy watched step by step to Running with an address, a bulk create
 * of five, and a create that Proxmox-side rules refuse (a template with a
 * cloud-init drive) showing the reason and the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium, watchPageProblems } from '../support/browser';
import { screenshotPath } from '../support/screenshots';
import { rendererMissingReason, startTestHost, type TestHost } from '../support/web-host';

const skipReason = chromiumMissingReason() ?? rendererMissingReason();
if (skipReason) console.log(`[e2e create] skipped: ${skipReason}`);

const poll = { timeout: 30_000 };

describe.skipIf(skipReason !== undefined)('create proxies in the browser against the simulator', () => {
  let t: TestHost;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestHost({ demoTimeScale: 0.02, monitoring: { inventory: { visibleIntervalMs: 300 } } });
    await t.demo;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watchPageProblems(page, problems);
    await page.goto(t.host.url);
    await page.getByRole('button', { name: 'Proxies' }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openCreate() {
    await page.keyboard.press('Control+n');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByRole('option', { name: 'debian-13-template' }).count(), poll).toBeGreaterThan(0);
    return dialog;
  }

  it('creates a proxy and shows its steps until it runs with an address', async () => {
    const dialog = await openCreate();
    await dialog.getByLabel('Template').selectOption('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e-one');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      await page.screenshot({ path: screenshotPath(`create-${theme}.png`) });
    }
    await dialog.getByRole('button', { name: 'Create proxy' }).click();

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tasks');
    const details = page.getByRole('article', { name: 'Task Create e2e-one' });
    const steps = details.getByRole('region', { name: 'Steps' });
    await expect.poll(() => steps.getByRole('listitem').count(), poll).toBeGreaterThan(2);
    await expect.poll(() => details.getByText('succeeded', { exact: true }).first().isVisible(), poll).toBe(true);
    expect(await steps.getByText('failed', { exact: true }).count()).toBe(0);
    // The Proxmox task log of a step is shown, numbered, like Proxmox's task viewer.
    await expect.poll(() => details.getByRole('log').textContent(), poll).toContain('TASK OK');

    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search proxies' }).fill('e2e-one');
    const row = page.getByRole('row').filter({ hasText: 'e2e-one' });
    await expect.poll(() => row.textContent(), poll).toMatch(/running\d+\.\d+\.\d+\.\d+/);
  });

  it('creates five at once and lists all five', async () => {
    const dialog = await openCreate();
    await dialog.getByLabel('Template').selectOption('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('bulk');
    await dialog.getByRole('spinbutton', { name: 'Count' }).fill('5');
    await dialog.getByText('Names will be bulk-1 … bulk-5.').waitFor();
    await dialog.getByRole('button', { name: 'Create 5 proxies' }).click();

    const tasks = page.getByRole('list', { name: 'Tasks' });
    await expect
      .poll(() => tasks.getByRole('listitem').filter({ hasText: 'succeeded' }).filter({ hasText: '5 proxies' }).count(), poll)
      .toBe(1);

    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search proxies' }).fill('bulk-');
    await expect.poll(() => page.getByLabel('Rows shown').textContent(), poll).toMatch(/^5 of \d+ VMs$/);
    await expect
      .poll(
        () =>
          page
            .getByRole('row')
            .filter({ hasText: /bulk-\d/ })
            .filter({ hasText: 'running' })
            .count(),
        poll,
      )
      .toBe(5);
  });

  it('a template with a cloud-init drive fails the create with the reason and the fix', async () => {
    const dialog = await openCreate();
    await dialog.getByLabel('Template').selectOption('ubuntu-2604-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e-bad');
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    // Refused either at once (in the dialog) or by the task: both show the class, the reason and what to do.
    const notice = page.getByRole('alert').or(page.getByRole('article', { name: 'Task Create e2e-bad' }).locator('.error-notice'));
    await expect.poll(() => notice.first().textContent(), poll).toMatch(/cloud-init/i);
    const text = (await notice.first().textContent()) ?? '';
    expect(text).toMatch(/Permanent|Invalid input/);
    expect(text).toContain('What to do:');
  });

  it('ran without page errors or CSP violations (CodeMirror included)', () => {
    expect(problems).toEqual([]);
  });
});
