import { expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const setup: E2eOptions = {};

describeE2e('the app shell in browser mode', setup, ({ page }) => {
  it('shows the shell and says it is connected to main over the browser transport', async () => {
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).textContent()).toContain('Connected to main (browser mode)');
    expect(await page.getByRole('navigation', { name: 'Views' }).isVisible()).toBe(true);
  });

  it('round-trips app.version: the version main reports is on screen', async () => {
    await expect.poll(() => page.getByLabel('Version').textContent()).toBe('v0.0.0-test');
    await expect.poll(() => page.getByText('browser mode', { exact: true }).count()).toBeGreaterThan(0);
  });

  it('receives pushed app.status events', async () => {
    const uptime = page.getByLabel('Main uptime');
    await expect.poll(() => uptime.count()).toBe(1);
    const first = await uptime.textContent();
    await expect.poll(() => uptime.textContent(), { timeout: 5000 }).not.toBe(first);
  });

  it('navigates every view by clicking, and by keyboard shortcut', async () => {
    const nav = page.getByRole('navigation', { name: 'Views' });
    for (const name of ['Overview', 'Nodes', 'Templates', 'Proxies', 'Tasks', 'Cleanup', 'Settings']) {
      await nav.getByRole('button', { name, exact: true }).click();
      expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toBe(name);
      expect(await nav.getByRole('button', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    }
    await page.keyboard.press('Control+4');
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Proxies');
  });

  it('switches between light and dark themes (and keeps a screenshot of each)', async () => {
    await page.setViewportSize({ width: 1100, height: 640 });
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Overview', exact: true }).click();
    await page.getByLabel('Theme').selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)');
    await page.screenshot({ path: screenshotPath('shell-dark.png') });
    await page.getByLabel('Theme').selectOption('light');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.screenshot({ path: screenshotPath('shell-light.png') });
  });

  it('exposes no preload API in browser mode', async () => {
    expect(await page.evaluate(() => 'egressDesk' in window)).toBe(false);
  });
});
