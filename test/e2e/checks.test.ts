/**
 * Scheduled checks in the browser against the demo: the drawer's Scheduled
 * checks section shows a Test of the broken demo proxy (150003, 502) as a
 * failed check with its reason as soon as it is recorded, and the proxy's
 * switch turns its scheduled checks off, saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium } from '../support/browser';
import { screenshotPath } from '../support/screenshots';
import { rendererMissingReason, startTestHost, type TestHost } from '../support/web-host';

const skipReason = chromiumMissingReason() ?? rendererMissingReason();
if (skipReason) console.log(`[e2e checks] skipped: ${skipReason}`);

const poll = { timeout: 30_000 };
const broken = 'proxy-c9h4g1f6d3s8a2p7o5';

describe.skipIf(skipReason !== undefined)('scheduled checks in the proxy drawer', () => {
  let t: TestHost;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    t = await startTestHost({ demoTimeScale: 0.02, monitoring: { inventory: { visibleIntervalMs: 300 } } });
    await t.demo;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(t.host.url);
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
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

  it('ran without page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
