/**
 * Search from anywhere (Ctrl+K), end to end against the simulated demo
 * cluster in Chromium, with the keyboard only: from any view Ctrl+K opens the
 * search, typing narrows it, the arrows move, Enter opens a proxy's drawer,
 * a node's page, a template's catalogue and a task's details, Escape closes
 * and focus comes back; axe finds nothing wrong with it open. Its picture:
 * search-light.png (support/screenshots.ts).
 */
import { expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e } from '../support/e2e';
import { screenshotPath } from '../support/screenshots';

const poll = { timeout: 30_000 };
const proxy = 'proxy-b3n8v5c2x7z4l9k1j6';

describeE2e('search from anywhere (Ctrl+K)', { host: demoHost, viewport: { width: 1280, height: 800 } }, ({ page }) => {
  const search = () => page.getByRole('dialog', { name: 'Search' });
  const box = () => page.getByRole('combobox', { name: 'Search proxies, nodes, templates and tasks' });
  const active = () =>
    page.evaluate(() => document.getElementById(document.activeElement?.getAttribute('aria-activedescendant') ?? '')?.textContent);
  const heading = () => page.getByRole('heading', { level: 1 }).first();

  it('opens with Ctrl+K from the Overview, focus in the field; Enter on a proxy opens its drawer in Proxies', async () => {
    await expect.poll(() => page.getByRole('article', { name: 'Node pv1-1' }).count(), poll).toBeGreaterThan(0);
    await page.keyboard.press('Control+k');
    await expect.poll(() => search().count()).toBe(1);
    expect(await box().evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('b3n8');
    await expect.poll(() => search().getByRole('option').count(), poll).toBe(1);
    expect(await active()).toContain(proxy);
    expect(await axeViolations(page).then((v) => formatViolations('Search', v))).toBe('Search: no violations');
    await page.keyboard.press('Enter');
    await expect.poll(() => search().count()).toBe(0);
    await expect.poll(() => heading().textContent(), poll).toBe('Proxies');
    await expect.poll(() => page.getByRole('complementary', { name: `Details of ${proxy}` }).count(), poll).toBe(1);
  });

  it('Enter on a node opens its page; the arrows move through the results', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('pv1-');
    await expect.poll(() => active(), poll).toMatch(/^Nodepv1-1/);
    await page.keyboard.press('ArrowDown');
    expect(await active()).toMatch(/^Nodepv1-2/);
    await page.screenshot({ path: screenshotPath('search-light.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent(), poll).toBe('Nodes');
    await expect.poll(() => page.getByRole('table', { name: 'Storages of pv1-2' }).count(), poll).toBe(1);
  });

  it('Enter on a template opens its cluster’s catalogue; on a task, its details; Escape closes and gives focus back', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('debian-13');
    await expect.poll(() => active(), poll).toMatch(/^Templatedebian-13-template/);
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent(), poll).toBe('Templates');
    await expect.poll(() => page.getByRole('table', { name: 'Template catalogue of Demo cluster (simulated)' }).count(), poll).toBe(1);

    // A task to find: reboot the proxy from its row's Actions menu (it asks first, and for the operator's mark to be acknowledged).
    await page.keyboard.press('Control+4');
    await page.getByRole('button', { name: `Actions for ${proxy}` }).click();
    await page.getByRole('menuitem', { name: /^Reboot/ }).click();
    const confirm = page.getByRole('dialog', { name: `Reboot ${proxy}?` });
    // The demo's proxies are operator-made: the dialog asks for that to be acknowledged.
    for (const box of await confirm.getByRole('checkbox').all()) await box.check();
    await confirm.getByRole('button', { name: `Reboot ${proxy}` }).click();
    await expect.poll(() => page.getByRole('dialog').count(), poll).toBe(0);
    await page.keyboard.press('Control+k');
    await page.keyboard.type(`reboot ${proxy.slice(0, 10)}`);
    await expect.poll(() => active(), poll).toMatch(/^Task/);
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent(), poll).toBe('Tasks');
    await expect.poll(() => page.getByRole('article', { name: new RegExp(`^Task Reboot.*${proxy}`) }).count(), poll).toBe(1);

    const main = page.getByRole('main');
    await main.focus();
    await page.keyboard.press('Control+k');
    await expect.poll(() => search().count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => search().count()).toBe(0);
    expect(await main.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
