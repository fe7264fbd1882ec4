/** The Nodes view in Chromium against the demo cluster: the table, a node drilled into for its proxies and storages, screenshots. */
import { beforeAll, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const setup: E2eOptions = {
  host: { demoTimeScale: 0.02, monitoring: { health: { intervalMs: 500 }, inventory: { visibleIntervalMs: 500 } } },
  viewport: { width: 1024, height: 640 },
};

describeE2e('Nodes: table and drill-down on the demo cluster', setup, ({ page }) => {
  beforeAll(async () => {
    await page.getByRole('button', { name: 'Nodes' }).click();
  });

  it('lists every node with its status, load, memory and storages; the down node stands out', async () => {
    const table = page.getByRole('table', { name: 'Nodes' });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBe(4);
    const down = table.getByRole('row', { name: /pv1-3/ });
    await expect.poll(() => down.textContent(), { timeout: 15_000 }).toContain('offline');
    await expect.poll(() => down.getAttribute('class'), { timeout: 15_000 }).toContain('row-bad');
    const up = table.getByRole('row', { name: /pv1-1/ });
    expect(await up.textContent()).toContain('online');
    expect(await up.textContent()).toContain('proxy-seeds');
    expect(await page.getByRole('meter', { name: 'Memory of pv1-1' }).getAttribute('aria-valuenow')).not.toBeNull();
    await page.getByLabel('Theme').selectOption('light');
    await page.screenshot({ path: screenshotPath('nodes-light.png') });
    await page.getByLabel('Theme').selectOption('dark');
    await page.screenshot({ path: screenshotPath('nodes-dark.png') });
  });

  it('drills into a node for its proxies and its storages, and back', async () => {
    await page.getByRole('button', { name: 'pv1-1', exact: true }).click();
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toContain('pv1-1');
    const proxies = page.getByRole('table', { name: 'Proxies on pv1-1' });
    await expect.poll(() => proxies.getByRole('row').count()).toBeGreaterThan(1);
    expect(await proxies.textContent()).toMatch(/running/);
    const storages = page.getByRole('table', { name: 'Storages of pv1-1' });
    expect(await storages.getByRole('rowheader', { name: 'proxy-seeds' }).count()).toBe(1);
    expect(await page.getByRole('meter', { name: 'Space used on proxy-seeds' }).getAttribute('aria-valuenow')).not.toBeNull();
    await page.screenshot({ path: screenshotPath('nodes-detail-dark.png') });
    await page.getByRole('button', { name: '← All nodes' }).click();
    expect(await page.getByRole('table', { name: 'Nodes' }).isVisible()).toBe(true);
  });
});
