/**
 * Issue 24 end to end on the demo: the demo's own Squid asks for a username
 * and password main keeps for it; Test passes with them; the drawer shows the
 * password only when asked ("Show password"), and hides it again; Create asks
 * for credentials by default. Checked with axe at 1024 px, light and dark.
 */
import { beforeAll, expect, it } from 'vitest';
import { DEMO_VLAN4_EGRESS_ADDRESS } from '../../main/services/demo/demo-proxies';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const first = 'proxy-a7k2m9x4q1w8e5r3t6';
const setup: E2eOptions = { host: demoHost, viewport: { width: 1024, height: 640 } };

describeE2e('proxy credentials in the browser against the demo', setup, ({ page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  it('Test passes with the kept credentials; the password shows only on "Show password"', async () => {
    await page.getByRole('button', { name: `Details of ${first}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${first}` });
    const test = drawer.getByRole('region', { name: 'Proxy test' });
    await expect.poll(() => test.getByRole('button', { name: 'Show password' }).count(), poll).toBe(1);
    expect(await drawer.textContent()).not.toMatch(/password [A-Za-z0-9_-]{32}/);
    await drawer.getByRole('button', { name: 'Test' }).click();
    const outcome = drawer.getByRole('status', { name: 'Test result' });
    await expect.poll(() => outcome.textContent(), poll).toContain('Proxy works');
    expect(await outcome.textContent()).toContain(DEMO_VLAN4_EGRESS_ADDRESS);

    await test.getByRole('button', { name: 'Show password' }).click();
    await expect
      .poll(async () => (await test.textContent())?.replace(/^[\s\S]*Username and password/, ''), poll)
      .toMatch(/Username egress, password [A-Za-z0-9_-]{32}/);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      const violations = await axeViolations(page, '[aria-label="Proxy test"]');
      expect(violations, formatViolations(`drawer credentials, ${theme}`, violations)).toEqual([]);
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await test.getByRole('button', { name: 'Hide password' }).click();
    expect(await test.textContent()).not.toMatch(/password [A-Za-z0-9_-]{32}/);
    await page.keyboard.press('Escape');
  });

  it('Create asks for a username and password by default, with only placeholders in the user-data', async () => {
    await page.keyboard.press('Control+n');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    const box = dialog.getByRole('checkbox', { name: 'Require a username and password' });
    await expect.poll(() => box.isChecked(), poll).toBe(true);
    // The editor (loaded a moment after the dialog) shows its first lines: Squid's auth program, whose htpasswd file main fills.
    const editor = dialog.locator('.cloud-init-editor .cm-content');
    await expect.poll(async () => (await editor.count()) > 0 && (await editor.textContent()), poll).toContain('basic_ncsa_auth');
    const violations = await axeViolations(page, '[role="dialog"]');
    expect(violations, formatViolations('create dialog', violations)).toEqual([]);
    await page.keyboard.press('Escape');
  });
});
