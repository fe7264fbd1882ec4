/**
 * Issue 24 §3 end to end, in Chromium against the simulated demo: two proxies selected (Squid on 3128, microsocks'
 * SOCKS5 on 1080), Export… writes a PAC file that sends the typed hosts through them in order and a proxychains file
 * with a line for each (downloaded in browser mode, the same text as the preview); a bad host pattern is refused in
 * words before any request; "include credentials" warns once and the choice is kept; the drawer copies the SOCKS5
 * proxy's URL as socks5h://. The dialog fits at 1024×700 and 1280×800, light and dark, with no axe violation and
 * nothing off screen or overlapping; the keyboard opens it on Format and Escape gives focus back to Export….
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { formatLayoutProblems, pageLayoutProblems } from '../support/layout-check';
import { screenshotPath } from '../support/screenshots';

const poll = { timeout: 30_000 };
const squid = 'proxy-a7k2m9x4q1w8e5r3t6'; // 150001, Squid on 3128
const socks = 'proxy-b3n8v5c2x7z4l9k1j6'; // 150002, microsocks on 1080
const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 } };
const sizes = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
] as const;

describeE2e('handing proxies to clients in the browser against the demo', setup, ({ page, host }) => {
  const dialog = () => page.getByRole('dialog', { name: 'Export proxies' });
  const preview = () =>
    dialog()
      .getByLabel('Preview', { exact: true })
      .textContent()
      .catch(() => '');
  const address = (name: string) => page.getByRole('row').filter({ hasText: name });

  it('exports the two selected proxies as a PAC file, the typed hosts through them in order', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    for (const name of [squid, socks]) {
      await expect.poll(() => address(name).textContent(), poll).toMatch(/\d+\.\d+\.\d+\.\d+/);
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    const ip = async (name: string) => /(\d+\.\d+\.\d+\.\d+)/.exec((await address(name).textContent()) ?? '')![1]!;
    const [squidIp, socksIp] = [await ip(squid), await ip(socks)];
    const exportButton = page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Export…' });
    await exportButton.click();
    // The keyboard starts on the format.
    expect(await page.evaluate(() => document.activeElement?.closest('.field')?.querySelector('label')?.textContent)).toBe('Format');
    await dialog().getByLabel('Hosts through the proxies').fill('ex ample.com');
    await expect
      .poll(
        () =>
          dialog()
            .getByText(/“ex ample.com”: A host pattern is a host name/)
            .count(),
        poll,
      )
      .toBe(1);
    await dialog().getByLabel('Hosts through the proxies').fill('*.example.com\napi.test');
    await expect.poll(preview, poll).toContain(`var proxies = "PROXY ${squidIp}:3128; SOCKS5 ${socksIp}:1080; DIRECT";`);
    expect(await preview()).toContain('var hosts = ["*.example.com", "api.test"];');
    expect(await dialog().getByRole('heading', { name: 'proxy.pac: 2 proxies' }).count()).toBe(1);
    expect(await dialog().textContent()).toContain('A PAC file carries no credentials');

    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `the Export dialog at ${size.width}×${size.height}, ${theme}`;
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`export-pac-${size.width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('exports them as a proxychains file and downloads the same text', async () => {
    await dialog().getByLabel('Format').selectOption('proxychains');
    await expect.poll(preview, poll).toContain('round_robin_chain');
    const text = (await preview())!;
    expect(text).toMatch(/^proxy_dns$/m);
    expect(text).toMatch(/^http \d+\.\d+\.\d+\.\d+ 3128$/m);
    expect(text).toMatch(/^socks5 \d+\.\d+\.\d+\.\d+ 1080$/m);
    const [download] = await Promise.all([page.waitForEvent('download'), dialog().getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('proxychains.conf');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(text);
    expect(await dialog().getByRole('status').filter({ hasText: 'Downloaded as proxychains.conf.' }).count()).toBe(1);
  });

  it('warns once before credentials go in, and keeps the choice', async () => {
    const box = dialog().getByRole('checkbox', { name: 'Include credentials' });
    await box.check();
    const warning = dialog().getByRole('alert').filter({ hasText: 'Passwords in clear text.' });
    expect(await warning.count()).toBe(1);
    const v = await axeViolations(page, '[role="dialog"]');
    expect(v, formatViolations('the credentials warning', v)).toEqual([]);
    await warning.getByRole('button', { name: 'Include credentials' }).click();
    await expect.poll(() => host.app.profiles.settings().exportCredentialsAcknowledged, poll).toBe(true);
    await expect.poll(() => warning.count(), poll).toBe(0);
    // The demo's proxies have credentials main keeps (issue 24): each proxychains line now ends with them.
    await expect.poll(preview, poll).toMatch(/^(http|socks5) [\d.]+ \d+ \S+ \S+$/m);
    await box.uncheck();
    await box.check();
    expect(await dialog().getByRole('alert').count()).toBe(0);
    await box.uncheck();
  });

  it('Escape closes the dialog and gives focus back to Export…', async () => {
    await dialog().getByLabel('Format').focus();
    await page.keyboard.press('Escape');
    expect(await dialog().count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Export…');
  });

  it('copies the SOCKS5 proxy’s URL from the drawer as socks5h://', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: `Details of ${socks}` }).click();
    const test = page.getByRole('complementary').getByRole('region', { name: 'Proxy test' });
    await expect
      .poll(
        () =>
          test
            .locator('.proxy-url code')
            .textContent()
            .catch(() => ''),
        poll,
      )
      .toMatch(/^socks5h:\/\/[\d.]+:1080$/);
    await test.getByRole('button', { name: 'Copy proxy address' }).click();
    await expect.poll(() => test.getByText('Copied', { exact: true }).count(), poll).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await test.locator('.proxy-url code').textContent());
    // With its username and password only on the explicit button (the demo's proxies have credentials, kept in main).
    await test.getByRole('button', { name: 'Copy URL with credentials' }).click();
    await expect.poll(() => test.getByText('Copied the URL with its password').count(), poll).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^socks5h:\/\/[^:@/]+:[^:@/]+@[\d.]+:1080$/);
  });
});
