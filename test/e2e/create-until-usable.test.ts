/**
 * Issue 23 item 8, end to end on the demo: a create is done when the proxy is usable. Between Proxmox's end and
 * the address the task reads running (not "succeeded"), the status bar counts it, its duration runs on, and it says
 * what the guest is doing; it succeeds when the address comes. The demo runs at 1/5 of Proxmox's time here so the
 * wait lasts long enough to read (the app's demo keeps Proxmox's own clock: about 50 s).
 */
import { expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 60_000, interval: 100 };

const setup: E2eOptions = {
  host: { demoTimeScale: 0.2, monitoring: { inventory: { visibleIntervalMs: 300 } } },
  viewport: { width: 1280, height: 800 },
};

describeE2e('a create runs until its proxy has an address', setup, ({ page }) => {
  it('reads running, counted and ticking, while the guest boots; succeeded once the address came', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.keyboard.press('Control+n');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('usable-one');
    const clicked = Date.now();
    await dialog.getByRole('button', { name: 'Create proxy' }).click();

    const details = page.getByRole('article', { name: 'Task Create usable-one' });
    await expect.poll(() => details.textContent(), poll).toContain('address: waiting');
    const proxmoxDone = Date.now();
    const header = details.locator('header');
    // Not "succeeded" while the proxy cannot be used: running, and counted as running.
    expect(await header.getByText('succeeded', { exact: true }).count()).toBe(0);
    expect(await header.getByText('running', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('status', { name: 'Running tasks' }).textContent()).toMatch(/1 task running/);
    // What the guest is doing meanwhile.
    await expect.poll(() => details.getByRole('region', { name: 'Proxy address' }).textContent(), poll).toMatch(
      /The VM (runs \(started .+ ago\): the guest boots, cloud-init installs the proxy|is starting)/,
    );
    // Its duration runs on in the Tasks table.
    const row = page.getByRole('row').filter({ hasText: 'usable-one' }).first();
    const before = await row.textContent();
    await page.screenshot({ path: screenshotPath('create-waiting-address.png') });
    await expect.poll(async () => (await row.textContent()) !== before, poll).toBe(true);

    await expect.poll(() => header.getByText('succeeded', { exact: true }).count(), poll).toBe(1);
    const ready = Date.now();
    expect(await details.getByRole('button', { name: 'Copy address' }).count()).toBe(1);
    console.log(
      `create-until-usable: Proxmox's part ${((proxmoxDone - clicked) / 1000).toFixed(1)} s, address ${((ready - clicked) / 1000).toFixed(1)} s after Create (demo at 1/5 of Proxmox's time)`,
    );
  });
});
