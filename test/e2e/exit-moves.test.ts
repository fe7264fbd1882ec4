/**
 * Issue 24, "Expected exit", end to end on the demo: a proxy's first good
 * Test proposes its exit and the user confirms it; Reconfigure moves the
 * proxy to another VLAN, where the demo routes it to another uplink
 * (main/services/demo/demo-proxies.ts demoEgressOf), so the next check
 * leaves from elsewhere and "Egress outside the expected" is raised, with the
 * new address offered in the drawer; confirming it resolves the alert at
 * once. The drawer's offer is checked with axe at 1024 px, light and dark.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DEMO_VLAN4_EGRESS_ADDRESS, demoEgressOf } from '../../main/services/demo/demo-proxies';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { screenshotPath } from '../support/screenshots';

const poll = { timeout: 30_000 };
const proxy = 'proxy-a7k2m9x4q1w8e5r3t6'; // 150001: Squid, running on pv1-1, on vmbr0 VLAN 4
const vlan = 30;
const moved = demoEgressOf(`bridge=vmbr0,tag=${vlan}`);
const setup: E2eOptions = { host: demoHost, viewport: { width: 1024, height: 700 } };

describeE2e('a proxy moved to another VLAN exits outside its expected exit until confirmed', setup, ({ page, newPage }) => {
  const drawer = () => page.getByRole('complementary', { name: `Details of ${proxy}` });
  const openDrawer = async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('button', { name: `Details of ${proxy}` }).click();
    await expect.poll(() => drawer().count(), poll).toBe(1);
  };
  /** Test in the drawer, until it reports the proxy working through `address` (a scheduled check may be under way). */
  const testLeavesFrom = async (address: string) => {
    const outcome = drawer().getByRole('status', { name: 'Test result' });
    await expect
      .poll(async () => {
        // No result shown yet: textContent would wait for one (the action timeout) instead of pressing Test.
        const text = (await outcome.count()) > 0 ? ((await outcome.textContent()) ?? '') : '';
        if (text.includes('Proxy works') && text.includes(address)) return true;
        const test = drawer().getByRole('button', { name: 'Test', exact: true });
        if (await test.isEnabled().catch(() => false)) await test.click();
        return false;
      }, poll)
      .toBe(true);
  };
  const exitAlert = (p: Page) =>
    p.getByRole('table', { name: 'Alerts' }).getByRole('row').filter({ hasText: 'Egress outside the expected' }).filter({ hasText: proxy });

  it('confirms the first good check as the expected exit', async () => {
    await openDrawer();
    await testLeavesFrom(DEMO_VLAN4_EGRESS_ADDRESS);
    const checks = drawer().locator('.expected-exit');
    await expect.poll(() => checks.textContent(), poll).toContain(`The first good check left from ${DEMO_VLAN4_EGRESS_ADDRESS}`);
    await checks.getByRole('button', { name: `Expect ${DEMO_VLAN4_EGRESS_ADDRESS}` }).click();
    await expect.poll(() => checks.textContent(), poll).toContain(`Expected exit: ${DEMO_VLAN4_EGRESS_ADDRESS}`);
    await page.keyboard.press('Escape');
  });

  it(`moves it to VLAN ${vlan} with Reconfigure`, async () => {
    await page.getByRole('button', { name: `Actions for ${proxy}` }).click();
    await page.getByRole('menu', { name: `Actions for ${proxy}` }).getByRole('menuitem', { name: 'Reconfigure…' }).click();
    const dialog = page.getByRole('dialog', { name: `Reconfigure ${proxy}` });
    await dialog.getByRole('checkbox', { name: /Move to another bridge or VLAN/ }).check();
    await dialog.getByRole('textbox', { name: 'VLAN tag' }).fill(String(vlan));
    // Every demo proxy is operator-made: the dialog asks to acknowledge that the operator may undo the change.
    const acknowledge = dialog.getByRole('checkbox', { name: /operator may undo this change/ });
    if ((await acknowledge.count()) > 0) await acknowledge.check();
    await dialog.getByRole('button', { name: `Reconfigure ${proxy}` }).click();
    await page
      .getByRole('status')
      .getByRole('button', { name: /^Watch (it|them) in Tasks$/ })
      .click();
    const task = page.getByRole('article', { name: `Task Reconfigure ${proxy}` });
    await expect.poll(() => task.getByText('succeeded', { exact: true }).first().isVisible().catch(() => false), poll).toBe(true);
  });

  it('the next check leaves from the new VLAN: the alert is raised and the drawer offers the new exit', async () => {
    await openDrawer();
    await testLeavesFrom(moved);
    const offer = drawer().locator('.expected-exit-moved');
    await expect.poll(() => offer.textContent(), poll).toContain(`The last check left from ${moved}, outside it.`);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      const violations = await axeViolations(page, '.expected-exit');
      expect(violations, formatViolations(`expected exit moved, ${theme}`, violations)).toEqual([]);
      await offer.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath(`expected-exit-moved-${theme}.png`) });
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));

    // The Alerts view in a second window, so the drawer stays open in the first.
    const other = await newPage({ width: 1024, height: 700 });
    try {
      await other.goto(page.url());
      await other.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Alerts/ }).click();
      await expect.poll(() => exitAlert(other).count(), poll).toBe(1);
      const row = (await exitAlert(other).textContent()) ?? '';
      expect(row).toMatch(/open/);
      expect(row).toContain(`reaches the internet from ${moved}, outside its expected exit ${DEMO_VLAN4_EGRESS_ADDRESS}`);

      // Confirmed in the drawer: the alert resolves at once, without waiting for the next check.
      await offer.getByRole('button', { name: `Expect ${moved} instead` }).click();
      await expect.poll(() => drawer().locator('.expected-exit').textContent(), poll).toContain(`Expected exit: ${moved}`);
      expect(await offer.count()).toBe(0);
      await expect.poll(async () => (await exitAlert(other).textContent()) ?? '', poll).toMatch(/resolved/);
    } finally {
      await other.close();
    }
  });
});
