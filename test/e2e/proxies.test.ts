/**
 * The Proxies view end to end against the simulated demo cluster: the
 * table lists the demo's VMs (foreign ones marked), the drawer shows one in
 * full and runs the proxy check (through the demo's loopback proxy), and two proxies are deleted from the table
 * with the Delete key after a confirmation.
 */
import { beforeAll, expect, it } from 'vitest';
import { DEMO_VLAN4_EGRESS_ADDRESS } from '../../main/services/demo/demo-proxies';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const first = 'proxy-a7k2m9x4q1w8e5r3t6';
const second = 'proxy-c9h4g1f6d3s8a2p7o5';

const setup: E2eOptions = { host: demoHost, viewport: { width: 1024, height: 640 } };

describeE2e('the proxies table in the browser against the simulator', setup, ({ page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of ${name}` }) });

  it('lists the demo VMs, with look-alikes shown as foreign and not selectable', async () => {
    await expect.poll(() => row(first).count(), poll).toBe(1);
    const lookalike = row('proxy-lookalike-not-ours');
    await expect.poll(() => lookalike.textContent(), poll).toContain('foreign');
    expect(await lookalike.getByRole('checkbox').isDisabled()).toBe(true);
  });

  it('opens the details drawer and runs the Test action, showing its outcome', async () => {
    await page.getByRole('button', { name: `Details of ${first}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${first}` });
    await expect
      .poll(() => drawer.getByRole('region', { name: 'Mark' }).textContent(), poll)
      .toContain('3f9c2a1e-7b4d-4e8a-9c6f-1a2b3c4d5e6f');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      await page.screenshot({ path: screenshotPath(`proxies-${theme}.png`) });
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await drawer.getByRole('button', { name: 'Test' }).click();
    // The simulated guest's address is never dialled: the demo's loopback Squid stands in for it and answers from the
    // demo's own echo with the simulated egress address (the no-egress guard would fail the file on any other connection).
    const outcome = drawer.getByRole('status', { name: 'Test result' });
    await expect.poll(() => outcome.textContent(), poll).toContain('Proxy works');
    expect(await outcome.textContent()).toContain(DEMO_VLAN4_EGRESS_ADDRESS);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
  });

  it('deletes two proxies from the table with the Delete key, after naming them', async () => {
    await page.getByRole('checkbox', { name: `Select ${first}` }).check();
    await page.getByRole('checkbox', { name: `Select ${second}` }).check();
    await page.getByRole('grid', { name: 'Proxies' }).click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete 2 proxies?' });
    expect(await dialog.getByText(first).count()).toBe(1);
    expect(await dialog.getByText(second).count()).toBe(1);
    // The demo's proxies are operator-made: the delete waits for the operator warning's acknowledgement (issue 16).
    await dialog.getByRole('checkbox', { name: /operator may undo this change/ }).check();
    await dialog.getByRole('button', { name: 'Delete 2 proxies' }).click();
    await expect.poll(() => page.getByText('Started 2 delete tasks').count()).toBe(1);
    await expect.poll(async () => (await row(first).count()) + (await row(second).count()), poll).toBe(0);
    await expect.poll(() => row('proxy-b3n8v5c2x7z4l9k1j6').count()).toBe(1);
  });
});
