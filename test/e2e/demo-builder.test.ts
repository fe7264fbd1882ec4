/**
 * Issue 23, items 2 and 3, as a newcomer walks them: the builder reached
 * without writing code. The demo's Templates view offers Build a template,
 * a build there works (its nodes' `local` holds import content) and the
 * template joins the demo's catalogue for the session; "Create a proxy from
 * it" opens Create proxy on the demo and that template, though a real
 * cluster is connected, and Create proxy opened anywhere else starts on the
 * real cluster, not the demo. The real cluster is the CLI simulator's data
 * set (`main/simulator/cli.ts`, the demo data set) with its admin token,
 * where a build works as well. Screens: demo-builder-<width>-<theme>.png.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SEED_STORAGE, startSimulator, type Simulator } from '../../main/simulator';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };

let sim: Simulator;
const setup: E2eOptions = {
  before: async () => {
    sim = await startSimulator({ dataset: 'demo', timeScale: 0.01, agentDelayMs: 200 });
  },
  host: { demoTimeScale: 0.02, monitoring: { inventory: { visibleIntervalMs: 300 } } },
  viewport: { width: 1280, height: 800 },
  after: async () => sim?.close(),
};

const clusterLabel = (page: Page) =>
  page
    .getByRole('dialog', { name: 'Create proxy' })
    .getByLabel('Cluster')
    .evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');

describeE2e('the builder without writing code: on the demo, then a proxy from it', setup, ({ page, host }) => {
  const builder = () => page.getByRole('dialog', { name: /^Build a template on / });
  const create = () => page.getByRole('dialog', { name: 'Create proxy' });

  it('with a real cluster connected, Create proxy starts on it, not on the demo', async () => {
    const token = sim.tokens.admin!;
    await host.app.profiles.save({
      profile: {
        name: 'cli-sim',
        url: sim.url,
        tls: { mode: 'pin', fingerprint: sim.fingerprint },
        token: { secretStorage: 'session', tokenId: token.tokenId },
        nodes: [...sim.state.nodes.keys()],
        isoStorage: SEED_STORAGE,
        bridge: 'vmbr0',
        templates: { 'debian-13-template': { vmid: 9001 } },
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
      },
      secret: token.secret,
    });
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.keyboard.press('Control+n');
    await expect.poll(() => create().count(), poll).toBe(1);
    await expect.poll(() => clusterLabel(page), poll).toBe('cli-sim');
    await page.keyboard.press('Escape');
    await expect.poll(() => create().count(), poll).toBe(0);
  });

  it('offers Build a template on the demo and says its catalogue takes the build for this session', async () => {
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page.getByRole('toolbar', { name: 'Template actions' }).getByLabel('Cluster').selectOption({ label: 'Demo cluster (simulated)' });
    expect(await page.getByText('the demo adds it to its catalogue for this session').count()).toBe(1);
    await page.getByRole('button', { name: 'Build a template' }).click();
    await expect.poll(() => builder().getByRole('status').filter({ hasText: 'Ready:' }).count(), poll).toBe(1);
    expect(await builder().getByLabel('Download to (import storage)').inputValue()).toBe('local');
    for (const width of [1024, 1280]) {
      await page.setViewportSize({ width, height: width === 1024 ? 700 : 800 });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.screenshot({ path: screenshotPath(`demo-builder-${width}-${theme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('builds on the demo with the keyboard; the template lands in the demo catalogue', async () => {
    const startButton = builder().getByRole('button', { name: 'Start the build' });
    await startButton.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => builder().getByRole('region', { name: 'Build progress' }).count(), poll).toBe(1);
    await expect.poll(() => builder().locator('.builder-result').textContent(), { timeout: 60_000 }).toContain('Suitable');
    expect(await builder().textContent()).toContain('added to the catalogue as "debian-13-amd64"');
    await page.screenshot({ path: screenshotPath('demo-builder-done.png') });
  });

  it('"Create a proxy from it" opens Create proxy on the demo and the template just built, and the proxy gets an address', async () => {
    await builder().getByRole('button', { name: 'Create a proxy from it' }).click();
    await expect.poll(() => create().count(), poll).toBe(1);
    await expect.poll(() => clusterLabel(page), poll).toBe('Demo cluster (simulated)');
    await expect.poll(() => create().getByLabel('Template').inputValue(), poll).toBe('debian-13-amd64');
    await create().getByRole('button', { name: 'Create proxy' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Tasks');
    await expect.poll(() => page.getByText(/is ready at \d+\.\d+\.\d+\.\d+/).count(), { timeout: 60_000 }).toBeGreaterThan(0);
  });

  it('lists the built template in the demo catalogue as Suitable', async () => {
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page.getByRole('toolbar', { name: 'Template actions' }).getByLabel('Cluster').selectOption({ label: 'Demo cluster (simulated)' });
    const catalogue = page.getByRole('table', { name: /Template catalogue of / });
    await expect.poll(() => catalogue.getByRole('row', { name: /debian-13-amd64/ }).textContent(), poll).toContain('Suitable');
  });
});
