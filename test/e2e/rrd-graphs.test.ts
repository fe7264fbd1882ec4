/**
 * Issue 15 in Chromium against the demo cluster: a proxy's drawer and a node's page draw Proxmox's RRD
 * history with uPlot (a canvas, a local time axis, a readout that follows the mouse), switch timeframes,
 * and the drawer with its graphs has no axe violation.
 */
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const firstProxy = 'proxy-a7k2m9x4q1w8e5r3t6';

const setup: E2eOptions = {
  host: { demoTimeScale: 0.02, monitoring: { health: { intervalMs: 500 }, inventory: { visibleIntervalMs: 500 } } },
  viewport: { width: 1280, height: 900 },
};

describeE2e('RRD graphs: a proxy and a node over the demo cluster', setup, ({ page }) => {
  const nav = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name, exact: true });

  /** The plot of one graph, once uPlot has drawn it: its canvas and the time axis' labels. */
  async function drawn(region: Locator, title: RegExp): Promise<Locator> {
    const plot = region.getByRole('img', { name: title });
    await expect.poll(() => plot.locator('canvas').count(), poll).toBe(1);
    await expect.poll(() => plot.getAttribute('data-x-ticks'), poll).toBeTruthy();
    return plot;
  }

  it("a proxy's drawer draws its hour with a clock-time axis and a readout under the mouse", async () => {
    await nav('Proxies').click();
    const details = page.getByRole('button', { name: `Details of ${firstProxy}` });
    await expect.poll(() => details.count(), poll).toBe(1);
    await details.click();
    const drawer = page.getByRole('complementary', { name: `Details of ${firstProxy}` });
    const history = drawer.getByRole('region', { name: 'History: graphs from Proxmox' });
    const cpu = await drawn(history, /^CPU over the last hour: CPU latest \d+(\.\d)?%, highest/);
    // Local clock times, "14:05", on whole minutes.
    expect(await cpu.getAttribute('data-x-ticks')).toMatch(/^\d\d:\d\d( \| \d\d:\d\d)+$/);
    for (const title of [/^Memory over the last hour: Used latest [\d.]+ [KMG]iB/, /^Network over/, /^Disk I\/O over/])
      await drawn(history, title);

    await cpu.scrollIntoViewIfNeeded();
    const box = (await cpu.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    const readout = cpu.locator('.u-legend');
    await expect
      .poll(() => readout.locator('.u-series').first().locator('.u-value').textContent(), poll)
      .toMatch(/^\w{3} \d+ \w{3} \d\d:\d\d$/);
    expect(await readout.locator('.u-series').nth(1).locator('.u-value').textContent()).toMatch(/^\d+(\.\d)?%$/);
    // The keyboard reads it too: focus the plot, Home goes to the oldest point, the live region says it.
    await cpu.focus();
    await page.keyboard.press('Home');
    await expect
      .poll(() => cpu.locator('xpath=..').locator('[aria-live="polite"]').textContent(), poll)
      .toMatch(/^\w{3} \d+ \w{3} \d\d:\d\d: CPU /);
    await page.screenshot({ path: screenshotPath('rrd-drawer-dark.png') });

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const violations = await axeViolations(page, `aside[aria-label="Details of ${firstProxy}"]`);
      expect(violations, formatViolations(`Proxy drawer with graphs (${colorScheme})`, violations)).toEqual([]);
    }
  });

  it('the week and the year read again and label the axis with weekdays and months', async () => {
    const history = page.getByRole('region', { name: 'History: graphs from Proxmox' });
    await history.getByRole('button', { name: 'Week' }).click();
    const cpu = await drawn(history, /^CPU over the last week/);
    await expect.poll(() => cpu.getAttribute('data-x-ticks'), poll).toMatch(/^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d\d:\d\d/);
    // The year: 1440 points 6 h apart on 9.2, labelled by month.
    await history.getByRole('button', { name: 'Year' }).click();
    const year = await drawn(history, /^CPU over the last year/);
    await expect.poll(() => year.getAttribute('data-x-ticks'), poll).toMatch(/^[A-Z][a-z]{2} \d{4}( \| [A-Z][a-z]{2} \d{4})+$/);
    await page.keyboard.press('Escape');
  });

  it('the VM still being cloned has no history: the drawer says so instead of drawing', async () => {
    await nav('Proxies').click();
    await page.getByRole('button', { name: 'Details of VM 150004, name not set yet' }).click();
    const drawer = page.getByRole('complementary', { name: 'Details of VM 150004' });
    const history = drawer.getByRole('region', { name: 'History: graphs from Proxmox' });
    await expect.poll(() => history.getByText('No history yet').count(), poll).toBe(1);
    expect(await history.getByRole('img').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it("a node's page draws its history, without a disk graph", async () => {
    await nav('Nodes').click();
    await page.getByRole('button', { name: 'pv1-1', exact: true }).click();
    const history = page.getByRole('region', { name: 'History of pv1-1: graphs from Proxmox' });
    await drawn(history, /^CPU over the last hour/);
    await drawn(history, /^Network over the last hour: In latest [\d.]+ [KMG]?i?B\/s/);
    expect(await history.getByRole('img', { name: /^Disk/ }).count()).toBe(0);
    await history.getByText('Data summary').click();
    expect(await history.getByRole('rowheader', { name: 'Memory used' }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('rrd-node-dark.png') });
  });
});
