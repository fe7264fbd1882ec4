/**
 * Issue 24, Rotate, end to end on the demo: a proxy created with a username
 * and password; the drawer's "Rotate credentials" asks first, saying the VM
 * reboots; the task runs in the task panel and ends; the old password is
 * then refused by the app's own check through the demo's proxy (the auth
 * class words), Test passes with the new one, and the drawer shows a new
 * password. The button and its confirm are checked with axe and
 * photographed at 1024 px, light and dark (the confirm at 1280 too).
 */
import { expect, it } from 'vitest';
import { checkProxy } from '../../main/services/proxy-check/check';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { screenshotPath } from '../support/screenshots';

const poll = { timeout: 60_000, interval: 100 };
const name = 'rotate-me';
const setup: E2eOptions = { host: demoHost, viewport: { width: 1024, height: 720 } };

describeE2e('rotate a proxy’s credentials in the browser against the demo', setup, ({ page, demo }) => {
  it('rotates: the task ends, the old password is refused, the new one works', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.keyboard.press('Control+n');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByRole('option', { name: 'debian-13-template' }).count(), poll).toBeGreaterThan(0);
    await dialog.getByLabel('Template').selectOption('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    expect(await dialog.getByRole('checkbox', { name: 'Require a username and password' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    const created = page.getByRole('article', { name: `Task Create ${name}` });
    await expect.poll(() => created.locator('header').getByText('succeeded', { exact: true }).count(), poll).toBe(1);

    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('button', { name: `Details of ${name}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${name}` });
    const section = drawer.getByRole('region', { name: 'Proxy test' });
    await expect.poll(() => section.getByRole('button', { name: 'Show password' }).count(), poll).toBe(1);
    const passwordShown = async () => {
      await section.getByRole('button', { name: 'Show password' }).click();
      let text = '';
      await expect
        .poll(async () => (text = (await section.textContent()) ?? '').match(/password ([A-Za-z0-9_-]{32})/)?.[1], poll)
        .toBeDefined();
      await section.getByRole('button', { name: 'Hide password' }).click();
      return /password ([A-Za-z0-9_-]{32})/.exec(text)![1]!;
    };
    const old = await passwordShown();
    await drawer.getByRole('button', { name: 'Test' }).click();
    const outcome = drawer.getByRole('status', { name: 'Test result' });
    await expect.poll(() => outcome.textContent(), poll).toContain('Proxy works');

    const rotate = section.getByRole('button', { name: 'Rotate credentials' });
    await expect.poll(() => rotate.isEnabled(), poll).toBe(true);
    await rotate.scrollIntoViewIfNeeded();
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      await page.screenshot({ path: screenshotPath(`rotate-button-1024-${theme}.png`) });
    }
    await rotate.click();
    const confirm = page.getByRole('dialog', { name: `Rotate the credentials of ${name}?` });
    expect(await confirm.textContent()).toMatch(/reboots the VM/);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      await page.screenshot({ path: screenshotPath(`rotate-confirm-1024-${theme}.png`) });
      const violations = await axeViolations(page, '[role="dialog"]');
      expect(violations, formatViolations(`rotate confirm, ${theme}`, violations)).toEqual([]);
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: screenshotPath('rotate-confirm-1280-light.png') });
    await page.setViewportSize({ width: 1024, height: 720 });
    // Cancel has focus first: a stray Enter does not reboot the VM.
    expect(await confirm.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await confirm.getByRole('button', { name: 'Rotate and reboot' }).click();

    const panel = page.getByRole('region', { name: 'Running and recent tasks' });
    const row = panel.getByRole('row').filter({ hasText: `Rotate credentials ${name}` });
    await expect.poll(() => row.textContent(), poll).toMatch(/succeeded/);
    await page.screenshot({ path: screenshotPath('rotate-task-1024.png') });
    await page.keyboard.press('Escape');

    // The old password, sent by the app's own check through the demo's proxy for the guest: the auth class.
    const vm = [...demo.sim.state.vms.values()].find((v) => v.config.name === name)!;
    const route = await demo.proxies.route(vm.vmid, 3128);
    if (route?.kind !== 'listening') throw new Error('the demo runs no proxy for the rotated VM');
    const refused = await checkProxy({
      host: route.host,
      port: route.port,
      protocol: 'http',
      targetUrl: route.targetUrl,
      timeoutMs: 5000,
      credentials: { username: 'egress', password: old },
    });
    expect(refused.reachable).toBe(false);
    expect(refused.problem?.message).toMatch(/refused the username and password the app keeps for it \(HTTP 407\)/);

    // Test sends the new ones, which the rebooted guest's proxy takes; the drawer shows a new password.
    const details = page.getByRole('complementary', { name: `Details of ${name}` });
    if ((await details.count()) === 0) await page.getByRole('button', { name: `Details of ${name}` }).click();
    await details.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => details.getByRole('status', { name: 'Test result' }).textContent(), poll).toContain('Proxy works');
    const fresh = await passwordShown();
    expect(fresh).not.toBe(old);
  });
});
