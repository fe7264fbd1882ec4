/** The Templates view in Chromium against the demo cluster: the catalogue with the doctor's verdicts, read-only for the built-in demo; screenshots. */
import { beforeAll, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const setup: E2eOptions = { host: { demoTimeScale: 0.02 }, viewport: { width: 1024, height: 640 } };

describeE2e('Templates: the catalogue with verdicts', setup, ({ page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Templates' }).click();
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
});
