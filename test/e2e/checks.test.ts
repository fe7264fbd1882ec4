/**
 * Scheduled checks in the browser against the demo: the drawer's Scheduled
 * checks section shows a Test of the broken demo proxy (150003, 502) as a
 * failed check with its reason as soon as it is recorded, and the proxy's
 * switch turns its scheduled checks off, saying so.
 */
import { beforeAll, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const broken = 'proxy-c9h4g1f6d3s8a2p7o5';

const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 900 } };

describeE2e('scheduled checks in the proxy drawer', setup, ({ host: t, page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  it("shows a Test of the broken proxy in its check history, with the reason, and turns the proxy's checks off", async () => {
    await expect.poll(() => page.getByRole('button', { name: `Details of ${broken}` }).count(), poll).toBe(1);
    await page.getByRole('button', { name: `Details of ${broken}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${broken}` });
    const section = drawer.getByRole('region', { name: 'Scheduled checks' });
    await expect.poll(() => section.textContent(), poll).toContain('No check in the last 24 hours yet.');

    // tinyproxy listens on 8888 in the demo.
    await drawer.getByLabel('Port').fill('8888');
    await drawer.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => section.textContent(), poll).toContain('0 of 1 checks worked');
    expect(await section.getByRole('row').nth(1).textContent()).toMatch(/502/);
    expect(await section.textContent()).toContain('Checked as HTTP on port 8888');
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('proxy-checks-light.png') });

    await section.getByRole('checkbox', { name: /Check this proxy every 5 minutes/ }).click();
    await expect.poll(() => section.textContent(), poll).toContain('Not checked now: Scheduled checks are off for this proxy.');
    expect(t.app.checks.history({ clusterId: 'demo', vmid: 150_003, hours: 1 }).enabled).toBe(false);
  });
});
