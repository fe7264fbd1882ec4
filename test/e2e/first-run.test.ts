/**
 * The first run, as a new user meets it, in Chromium against browser mode
 * on a fresh data folder (so the app opens on the built-in demo): open the
 * app, click New proxy on the Overview, click Create proxy, and the task
 * goes on until the guest agent reports the proxy's address, shown in the
 * task. Every click is counted (at most 3 to an address on screen); each
 * step is saved as first-run-<n>.png (support/screenshots.ts: under
 * test-results/, or docs/screenshots/ with `npm run screenshots`). The demo's agent
 * answers about 50 s of simulated time after the VM starts; the demo time
 * scale (0.02) makes that about a second.
 */
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };

const setup: E2eOptions = { host: demoHost, dataDir: 'first-run', viewport: { width: 1280, height: 800 }, goto: false };

describeE2e('first run: the default path creates a proxy on the demo', setup, ({ host: t, page }) => {
  let clicks = 0;
  let step = 0;

  /** Every click of the path goes through here, so the test can say how many it took. */
  const click = async (target: Locator) => {
    clicks++;
    await target.click();
  };
  const screenshot = async () => {
    await page.screenshot({ path: screenshotPath(`first-run-${++step}.png`) });
  };

  it('open the app, New proxy on the Overview, Create proxy: at most three clicks to the address on screen', async () => {
    await page.goto(t.host.url);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    const newProxy = page.getByRole('toolbar', { name: 'Overview actions' }).getByRole('button', { name: 'New proxy' });
    await newProxy.waitFor();
    expect(await newProxy.getAttribute('title')).toContain('Ctrl+N');
    await expect.poll(() => page.getByRole('note', { name: 'Demo mode' }).isVisible(), poll).toBe(true);
    await screenshot();

    const clicked = Date.now();
    await click(newProxy);
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await dialog.waitFor();
    // Focus is on the first field.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await dialog.getByRole('combobox', { name: 'Cluster' }).getAttribute('id'),
    );
    // The default template is the suitable one the doctor picked, not the alphabetically first (unsuitable) one.
    await expect.poll(() => dialog.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
    console.log(`[e2e first-run] the template check picked the default ${Date.now() - clicked} ms after New proxy was clicked`);
    await screenshot();

    const created = Date.now();
    await click(dialog.getByRole('button', { name: 'Create proxy' }));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Tasks');
    const details = page.locator('article[aria-label^="Task Create proxy-"]');
    const parts = details.getByLabel('Parts of the create');
    // Proxmox's part is done, and the last step waits for the guest agent to report the address.
    await expect.poll(() => parts.textContent(), poll).toBe('Proxmox: done · address: waiting');
    const steps = details.getByRole('region', { name: 'Steps' });
    expect(await steps.textContent()).toMatch(/waiting for an address/i);
    await screenshot();

    await expect.poll(() => parts.textContent(), poll).toBe('Proxmox: done · address: ready');
    const address = details.getByLabel('Address', { exact: true });
    await expect.poll(() => address.isVisible(), poll).toBe(true);
    const shown = (await address.textContent()) ?? '';
    expect(shown).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const seconds = ((Date.now() - created) / 1000).toFixed(1);
    expect(await details.getByText('succeeded', { exact: true }).first().isVisible()).toBe(true);
    expect(await steps.getByText('failed', { exact: true }).count()).toBe(0);
    for (const name of ['Copy address', 'Open in Proxies', 'Test'])
      expect(await details.getByRole('button', { name, exact: true }).count(), name).toBe(1);
    // Browser mode tells it with a toast too (the desktop app with a notification).
    await expect.poll(() => page.getByRole('list', { name: 'Notifications' }).textContent(), poll).toContain(`ready`);
    await screenshot();

    console.log(
      `[e2e first-run] clicks from the open app to the address ${shown} on screen: ${clicks}; ${seconds} s from Create proxy to the address`,
    );
    expect(clicks).toBeLessThanOrEqual(3);
    expect(step).toBe(4);
  });
});
