/** The Templates view in Chromium against the demo cluster: the catalogue with the doctor's verdicts, read-only for the built-in demo; screenshots. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium, watchPageProblems } from '../support/browser';
import { screenshotPath } from '../support/screenshots';
import { rendererMissingReason, startTestHost, type TestHost } from '../support/web-host';

const skipReason = chromiumMissingReason() ?? rendererMissingReason();
if (skipReason) console.log(`[e2e templates] skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('Templates: the catalogue with verdicts', () => {
  let t: TestHost;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestHost({ demoTimeScale: 0.02 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
    watchPageProblems(page, problems);
    await page.goto(t.host.url);
    await page.getByRole('button', { name: 'Templates' }).click();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows each catalogued template with a verdict, and the reasons of an unsuitable one with the fix', async () => {
    const catalogue = page.getByRole('table', { name: /^Template catalogue of / });
    await expect.poll(() => catalogue.textContent(), { timeout: 20_000 }).toMatch(/Suitable/);
    const text = (await catalogue.textContent()) ?? '';
    expect(text).toContain('Unsuitable');
    expect(text).toContain('Fix:');
  });

  it('keeps the built-in demo read-only and says so', async () => {
    expect(await page.getByText('The demo cluster is built in').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Save machine types' }).isDisabled()).toBe(true);
    expect(await page.getByRole('spinbutton', { name: 'Cores of small' }).inputValue()).toBe('1');
    await page.getByLabel('Theme').selectOption('light');
    await page.screenshot({ path: screenshotPath('templates-light.png') });
    await page.getByLabel('Theme').selectOption('dark');
    await page.screenshot({ path: screenshotPath('templates-dark.png') });
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
