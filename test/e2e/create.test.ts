/**
 * Create proxy end to end, in Chromium against the simulated demo cluster:
 * one proxy watched step by step to Running with an address, a bulk create
 * of five, unsuitable templates (a cloud-init drive, no net0) listed apart
 * and impossible to choose, and the keyboard: Tab leaves the user-data
 * editor, Escape inside it keeps the dialog open.
 */
import { beforeAll, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };

const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 } };

describeE2e('create proxies in the browser against the simulator', setup, ({ page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  /** Opens the dialog and waits for the template check to pick the suitable default. */
  async function openCreate() {
    await page.keyboard.press('Control+n');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
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

    // The dialog answers once main has accepted the task; the view changes after that, so wait for it.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Tasks');
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
    // The demo's template lives on pv1-2's local storage, which Proxmox (and now the simulator) will not clone to
    // another node; main's Automatic placement spreads a bulk create over every online node (reported), so pick it.
    await dialog.getByLabel('Node').selectOption('pv1-2');
    await dialog.getByText('Names: bulk-1, bulk-2, bulk-3, …, bulk-5.').waitFor();
    await dialog.getByRole('button', { name: 'Create 5 proxies' }).click();

    // The Tasks view lists tasks in a table (a list in older builds).
    const entries = page
      .getByRole('table', { name: 'Tasks' })
      .getByRole('row')
      .or(page.getByRole('list', { name: 'Tasks' }).getByRole('listitem'));
    await expect.poll(() => entries.filter({ hasText: 'succeeded' }).filter({ hasText: '5 proxies' }).count(), poll).toBe(1);

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

  it('lists the unsuitable templates apart, disabled, each with its reason, so none can be chosen', async () => {
    const dialog = await openCreate();
    const template = dialog.getByLabel('Template');
    const refused = template.locator('optgroup[label="Not suitable"] option');
    await expect.poll(() => refused.count(), poll).toBe(2);
    const texts = await refused.allTextContents();
    expect(texts.find((t) => t.startsWith('ubuntu-2604-template'))).toMatch(/cloud-init/i);
    expect(texts.find((t) => t.startsWith('alpine-nonet-template'))).toMatch(/net0/i);
    for (const disabled of await refused.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).disabled))) expect(disabled).toBe(true);
    await expect(template.selectOption('ubuntu-2604-template', { timeout: 1000 })).rejects.toThrow();
    expect(await template.inputValue()).toBe('debian-13-template');
    // The down node of the demo cannot be chosen either.
    const down = dialog.getByRole('option', { name: /^pv1-3\b/ });
    expect(await down.textContent()).toMatch(/down/);
    expect(await down.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('the keyboard leaves the editor with Tab, and Escape inside it keeps the dialog open', async () => {
    const dialog = await openCreate();
    const editor = dialog.locator('.cloud-init-editor .cm-content');
    const before = await editor.textContent();
    await editor.click();
    const focusedInEditor = () => page.evaluate(() => document.activeElement?.classList.contains('cloud-init-editor') ?? false);
    expect(await focusedInEditor()).toBe(true);

    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.getByRole('dialog', { name: 'Discard this proxy?' }).count()).toBe(0);

    await editor.click();
    await page.keyboard.press('Tab');
    expect(await focusedInEditor()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInEditor()).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInEditor()).toBe(false);
    // Nothing was typed into the text on the way.
    expect(await editor.textContent()).toBe(before);

    // Outside the editor, Escape closes the untouched dialog.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
