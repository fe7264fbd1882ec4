/**
 * Issue 23 items 5, 9 and 13 end to end, in Chromium against the simulated
 * demo: the drawer names the port each proxy listens on (tinyproxy 8888,
 * microsocks' SOCKS5 1080) and Test goes there, so the broken tinyproxy
 * fails with its own HTTP 502, not "Nothing listens on …:3128"; a reboot
 * never reads "provisioning" while Proxmox says running; the bulk Stop of
 * operator-made proxies says the operator made them; Reconfigure says what
 * will change (the disk stays). Pictures at 1024 and 1280 px, light and dark.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const squid = 'proxy-a7k2m9x4q1w8e5r3t6'; // 150001, Squid on 3128
const socks = 'proxy-b3n8v5c2x7z4l9k1j6'; // 150002, microsocks on 1080
const tiny = 'proxy-c9h4g1f6d3s8a2p7o5'; // 150003, tinyproxy on 8888, its upstream down: 502

const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 } };
const sizes = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
] as const;

describeE2e('a proxy’s facts in the browser against the simulator', setup, ({ page, demo, problems }) => {
  const proxies = () => page.getByRole('button', { name: 'Proxies', exact: true }).click();
  const simVm = (name: string) => [...demo.sim.state.vms.values()].find((v) => v.config.name === name && !v.template);
  const noAxe = async (where: string) => {
    const v = await axeViolations(page, '[role="dialog"], .drawer');
    expect(v, formatViolations(where, v)).toEqual([]);
  };
  /** Pictures at both widths, light and dark; nothing drawn outside the viewport. */
  async function pictures(name: string, p: Page = page) {
    for (const size of sizes) {
      await p.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await p.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        const outside = await p.evaluate(() => {
          const box = document.querySelector('[role="dialog"]') ?? document.querySelector('.drawer');
          const r = box?.getBoundingClientRect();
          return r ? r.left < 0 || r.right > window.innerWidth + 0.5 : false;
        });
        expect(outside, `${name} at ${size.width} px`).toBe(false);
        await p.screenshot({ path: screenshotPath(`${name}-${size.width}-${theme}.png`) });
      }
    }
    await p.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await p.setViewportSize({ width: 1280, height: 800 });
  }
  const drawerTest = () => page.getByRole('complementary').getByRole('region', { name: 'Proxy test' });

  it('item 5: the drawer shows, copies and tests the port each proxy listens on', async () => {
    await proxies();
    for (const [name, url, outcome] of [
      [tiny, /^http:\/\/[\d.]+:8888$/, /HTTP 502/],
      [socks, /^socks5h:\/\/[\d.]+:1080$/, /Proxy works/],
    ] as const) {
      await page.getByRole('button', { name: `Details of ${name}` }).click();
      await expect
        .poll(
          () =>
            drawerTest()
              .locator('.proxy-url code')
              .textContent()
              .catch(() => ''),
          poll,
        )
        .toMatch(url);
      expect(await drawerTest().getByText(/:3128/).count()).toBe(0);
      await drawerTest().getByRole('button', { name: 'Test' }).click();
      const result = drawerTest().getByRole('status', { name: 'Test result' });
      await expect.poll(() => result.textContent().catch(() => ''), poll).toMatch(outcome);
      expect(await result.textContent()).not.toMatch(/Nothing listens/);
      if (name === tiny) {
        await noAxe('the drawer with its endpoint');
        await pictures('proxy-endpoint');
      }
      await page.keyboard.press('Escape');
    }
  });

  it('item 13: the bulk Stop of operator-made proxies says the operator made them', async () => {
    await proxies();
    for (const name of [squid, socks]) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: /^Stop/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop 2 proxies?' });
    const text = await dialog.textContent();
    expect(text).toContain('These 2 proxies were made by the proxy operator');
    expect(text).not.toContain('not made by this app:');
    await noAxe('the bulk stop confirmation');
    await pictures('proxies-bulk-stop-operator');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    for (const name of [squid, socks]) await page.getByRole('checkbox', { name: `Select ${name}` }).uncheck();
  });

  it('item 9: Reconfigure to a machine type says what will change, and that the disk stays', async () => {
    await proxies();
    await page.getByRole('button', { name: `Actions for ${squid}` }).click();
    await page
      .getByRole('menu', { name: `Actions for ${squid}` })
      .getByRole('menuitem', { name: 'Reconfigure…' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Reconfigure ${squid}` });
    await dialog.getByLabel('Machine type').selectOption('medium');
    const changes = await dialog.getByRole('region', { name: 'What will change' }).getByRole('listitem').allTextContents();
    expect(changes[0]).toMatch(/^CPU: \d+ vCPU( → 2 vCPU| \(stays\))$/);
    expect(changes[2]).toMatch(/^Boot disk: \d+ GiB \(stays\)$/);
    expect(changes[3]).toBe('User-data: stays');
    await noAxe('the reconfigure dialog with its changes');
    await pictures('reconfigure-changes');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('item 13: after a reboot the row never reads "provisioning" while Proxmox says it runs', async () => {
    await proxies();
    const row = page.getByRole('row').filter({ hasText: squid });
    await expect.poll(() => row.textContent(), poll).toMatch(/running/);
    await page.getByRole('button', { name: `Actions for ${squid}` }).click();
    await page
      .getByRole('menu', { name: `Actions for ${squid}` })
      .getByRole('menuitem', { name: /^Reboot/ })
      .click();
    const dialog = page.getByRole('dialog', { name: `Reboot ${squid}?` });
    await dialog.getByRole('checkbox', { name: /operator may undo this change/ }).check();
    const vm = simVm(squid)!;
    const startedBefore = vm.startedAt;
    // Its agent reports no address for a while after the boot (as a real guest's does for ~50 s), so the window in
    // which the row has no address is long enough to see.
    vm.agent = 'no-ip';
    await dialog.getByRole('button', { name: `Reboot ${squid}` }).click();
    await expect.poll(() => simVm(squid)!.startedAt !== startedBefore && simVm(squid)!.power === 'running', poll).toBe(true);
    const seen = new Set<string>();
    const look = async () => {
      const text = (await row.textContent()) ?? '';
      for (const s of ['provisioning', 'running', 'locked', 'stopped']) if (text.includes(s)) seen.add(s);
      return text;
    };
    let noAddress = false;
    for (let i = 0; i < 30; i++) {
      noAddress = !/\d+\.\d+\.\d+\.\d+/.test(await look()) || noAddress;
      await page.waitForTimeout(100);
    }
    vm.agent = 'reports-ip';
    await expect.poll(async () => /running.*\d+\.\d+\.\d+\.\d+/.test(await look()), { timeout: 60_000 }).toBe(true);
    expect(noAddress, 'the row went without an address while the guest booted').toBe(true);
    expect([...seen], `states seen: ${[...seen].join(', ')}`).not.toContain('provisioning');
  });

  it('left no page error or CSP report', () => {
    expect(problems).toEqual([]);
  });
});
