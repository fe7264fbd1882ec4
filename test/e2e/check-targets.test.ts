/**
 * Issue 24, targets, end to end on the demo: in the drawer of the demo's own
 * Squid, a target list holding a URL with a password is refused in words
 * before anything is sent; a good list is saved; Test checks the echo, then
 * fetches each target through the demo's loopback proxy: the `.example` site
 * the demo answers shows reached with its timings, the other one refused by
 * the proxy with its reason. Seen at 1024 and 1280 px, light and dark.
 */
import { beforeAll, expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const first = 'proxy-a7k2m9x4q1w8e5r3t6';
const setup: E2eOptions = { host: demoHost, viewport: { width: 1024, height: 768 } };

describeE2e('check targets in the proxy drawer against the demo', setup, ({ host: t, page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  it('refuses a list with a password in words, saves a good one, and shows each target after a Test', async () => {
    await page.getByRole('button', { name: `Details of ${first}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${first}` });
    const section = drawer.getByRole('region', { name: 'Scheduled checks' });
    const own = section.getByRole('textbox', { name: "This proxy's targets" });
    await expect.poll(() => own.count(), poll).toBe(1);

    await own.fill('http://shop.example/\nhttps://me:secret@shop.example/');
    await expect
      .poll(() => section.textContent(), poll)
      .toContain('Line 2 (https://…@shop.example/): The URL must not hold a user name or password');
    expect(await section.getByRole('button', { name: 'Save targets' }).first().isDisabled()).toBe(true);

    await own.fill('http://shop.example/\nhttp://elsewhere.test/');
    await section.getByRole('button', { name: 'Save targets' }).first().click();
    await expect.poll(() => t.app.checks.targetsOf('demo', 150_001), poll).toEqual(['http://shop.example/', 'http://elsewhere.test/']);

    await drawer.getByRole('button', { name: 'Test' }).click();
    const table = section.getByRole('table', { name: "Each target's last fetch through the proxy" });
    await expect.poll(async () => (await table.count()) > 0 && (await table.textContent()), poll).toContain('reached (HTTP 200)');
    const group = (n: number) => table.locator('tbody').nth(n);
    await expect.poll(() => group(1).textContent(), poll).toMatch(/^http:\/\/elsewhere\.test\/ \(this proxy\).*failed.*HTTP 403/);
    expect(await group(0).textContent()).toMatch(/^http:\/\/shop\.example\/ \(this proxy\).*reached \(HTTP 200\).*\d+ ms \/ \d+ ms/);
    // The target that failed is not the proxy's failure: its own check worked.
    expect(await section.textContent()).toContain('1 of 1 checks worked');

    await table.scrollIntoViewIfNeeded();
    for (const width of [1024, 1280])
      for (const theme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 768 });
        await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        await table.scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`check-targets-${width}-${theme}.png`) });
        const violations = await axeViolations(page, '[aria-label="Scheduled checks"]');
        expect(violations, formatViolations(`check targets, ${width} ${theme}`, violations)).toEqual([]);
      }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  });
});
