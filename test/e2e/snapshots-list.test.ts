/**
 * Issue 25, the drawer's Snapshots, end to end on the demo: proxy 150001 lists an admin's snapshot and the app's
 * own, the app's with its badge and marked current; the stopped 150005, whose boot disk is a raw file on the NAS,
 * says so in words and lists none. Refresh is reached and pressed from the keyboard. Seen at 1024 and 1280 px,
 * light and dark, with axe and the layout check over the section.
 */
import { beforeAll, expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { formatLayoutProblems, pageLayoutProblems } from '../support/layout-check';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const first = 'proxy-a7k2m9x4q1w8e5r3t6';
const rawDisk = 'proxy-d2w6e1r9t4y7u3i8o0';
const setup: E2eOptions = { host: demoHost, viewport: { width: 1024, height: 768 } };

describeE2e('the Snapshots section of the proxy drawer against the demo', setup, ({ page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
  });

  it("lists the admin's snapshot and the app's own with its badge, reads again from the keyboard, and looks right", async () => {
    await page.getByRole('button', { name: `Details of ${first}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${first}` });
    const section = drawer.getByRole('region', { name: 'Snapshots' });
    const rows = section.getByRole('row');
    await expect.poll(() => rows.count(), poll).toBe(3);
    const admin = rows.nth(1);
    const ours = rows.nth(2);
    expect(await admin.textContent()).toContain('before-apt-upgrade');
    expect(await admin.textContent()).toContain('apt full-upgrade');
    expect(await admin.textContent()).not.toContain('Egress Desk’s');
    expect(await ours.textContent()).toContain('egressdesk-20261201-101500-reconfigure');
    expect(await ours.textContent()).toContain('Egress Desk’s');
    expect(await ours.getAttribute('aria-current')).toBe('true');
    expect(await section.textContent()).not.toContain('cannot be snapshotted');

    const refresh = section.getByRole('button', { name: 'Refresh the snapshots' });
    await refresh.focus();
    expect(await refresh.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => refresh.isEnabled(), poll).toBe(true);
    await expect.poll(() => rows.count(), poll).toBe(3);

    for (const width of [1024, 1280])
      for (const theme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 768 });
        await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`snapshots-${width}-${theme}.png`) });
        const violations = await axeViolations(page, '[aria-label="Snapshots"]');
        expect(violations, formatViolations(`snapshots, ${width} ${theme}`, violations)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[aria-label="Snapshots"]');
        expect(layout, formatLayoutProblems(`snapshots, ${width} ${theme}`, layout)).toEqual([]);
      }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1024, height: 768 });
  });

  it('says in words that the raw disk on the NAS cannot snapshot, and lists none', async () => {
    await page.getByRole('button', { name: `Details of ${rawDisk}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${rawDisk}` });
    const section = drawer.getByRole('region', { name: 'Snapshots' });
    await expect.poll(() => section.textContent(), poll).toContain('No snapshots.');
    expect(await section.getByRole('note').textContent()).toBe(
      "VM 150005 cannot be snapshotted: scsi0 is a raw volume on NFS storage 'nas-nfs': Proxmox snapshots only qcow2 volumes there.",
    );
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('snapshots-unsupported-1024-light.png') });
    const violations = await axeViolations(page, '[aria-label="Snapshots"]');
    expect(violations, formatViolations('snapshots unsupported', violations)).toEqual([]);
  });
});
