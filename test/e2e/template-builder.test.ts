/**
 * Issue 14 end to end, in Chromium against a second simulated cluster that
 * has no template at all but a storage with import content: connect it with
 * the wizard, which offers to build a template; build Debian 13 amd64 (the
 * checksum pasted as the publisher's list would give it), watch the steps and
 * the download, see the template land in the catalogue as Suitable, create a
 * proxy from it, and see its address. Every click is counted (goal: ten or
 * fewer) and the screens are saved as template-builder-<n>.png (support/screenshots.ts).
 */
import { expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { catalogueImage } from '../../shared/domain/image-catalogue';
import { minimalCluster, simImages, startSimulator, type ClusterDefinition, type Simulator } from '../../main/simulator';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const debian = catalogueImage('debian-13-amd64')!;

/** One node, `local` also holding import content, and no template. */
function noTemplates(): ClusterDefinition {
  const def = minimalCluster();
  const node = def.nodes[0]!;
  node.storages = node.storages.map((s) =>
    s.storage === 'local' ? { ...s, content: 'iso,vztmpl,backup,import', totalBytes: 100 * 1024 ** 3 } : s,
  );
  node.vms = node.vms.filter((v) => !v.template);
  return def;
}

/** The cluster the wizard connects to: started before the host, closed after it. */
let sim: Simulator;
const setup: E2eOptions = {
  before: async () => {
    sim = await startSimulator({ dataset: noTemplates(), timeScale: 0.01, agentDelayMs: 200 });
  },
  host: { demo: 'off', monitoring: { inventory: { visibleIntervalMs: 300 }, health: { intervalMs: 500 } } },
  viewport: { width: 1280, height: 860 },
  after: async () => sim?.close(),
};

describeE2e('build a template on a cluster that has none, then a proxy from it', setup, ({ page }) => {
  let clicks = 0;
  let shot = 0;
  const click = async (target: Locator) => {
    clicks++;
    await target.click();
  };
  const screenshot = async () => page.screenshot({ path: screenshotPath(`template-builder-${++shot}.png`) });

  const wizard = () => page.getByRole('dialog', { name: 'Connect a cluster' });
  const builder = () => page.getByRole('dialog', { name: /^Build a template on / });

  it('connects the cluster; with no suitable template the wizard offers to build one', async () => {
    await click(page.getByRole('button', { name: 'Settings' }));
    await click(page.getByRole('button', { name: 'Connect a cluster' }));
    const token = sim.tokens.admin!;
    await wizard().getByLabel('Cluster URL').fill(sim.url);
    await wizard().getByLabel('Token ID').fill(token.tokenId);
    await wizard().getByLabel('Token secret').fill(token.secret);
    await click(wizard().getByRole('button', { name: 'Check connection' }));
    await expect.poll(() => wizard().getByRole('heading', { name: '2. Trust the certificate' }).count(), poll).toBe(1);
    await click(wizard().getByRole('radio', { name: /pin its fingerprint/ }));
    await click(wizard().getByRole('button', { name: 'Trust this certificate and continue' }));
    await expect.poll(() => wizard().getByRole('heading', { name: '4. Choose what to use' }).count(), poll).toBe(1);
    expect(await wizard().getByRole('group', { name: 'Templates' }).textContent()).toContain('No templates found.');
    await screenshot();
    await click(wizard().getByRole('button', { name: 'Save and build a template' }));
    await expect.poll(() => wizard().count(), poll).toBe(0);
  });

  it('builds Debian 13 after a preflight, showing the steps and the download', async () => {
    await expect.poll(() => builder().count(), poll).toBe(1);
    expect(await builder().getByLabel('Image', { exact: true }).inputValue()).toBe('debian-13-amd64');
    await expect.poll(() => builder().getByRole('status').filter({ hasText: 'Ready:' }).count(), poll).toBe(1);
    expect(await builder().getByLabel('Download to (import storage)').inputValue()).toBe('local');
    // The list's address is shown as text; the user copies the line from it.
    expect(await builder().getByText(debian.checksum.listUrl, { exact: true }).count()).toBe(1);
    const value = simImages(sim).checksum(debian.url, 'sha512');
    await builder().getByLabel('Checksum (sha512)').fill(`${value}  ${debian.fileName}`);
    await screenshot();
    await click(builder().getByRole('button', { name: 'Start the build' }));
    await expect.poll(() => builder().getByRole('region', { name: 'Build progress' }).count(), poll).toBe(1);
    await expect.poll(() => builder().getByRole('progressbar', { name: 'Download' }).count(), poll).toBe(1);
    await expect.poll(() => builder().locator('.builder-result').textContent(), poll).toContain('Suitable');
    const text = (await builder().textContent()) ?? '';
    expect(text).toContain('added to the catalogue as "debian-13-amd64"');
    expect(text).toMatch(/Download.*350\.0 MiB of 350\.0 MiB/);
    await screenshot();
  });

  it('creates a proxy from the new template and shows its address', async () => {
    await click(builder().getByRole('button', { name: 'Create a proxy from it' }));
    const create = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => create.getByLabel('Template').inputValue(), poll).toBe('debian-13-amd64');
    await screenshot();
    await click(create.getByRole('button', { name: 'Create proxy' }));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Tasks');
    await expect.poll(() => page.getByText(/is ready at \d+\.\d+\.\d+\.\d+/).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await screenshot();
    console.log(`[e2e template builder] clicks from the first screen to a proxy with an address: ${clicks}`);
    expect(clicks).toBeLessThanOrEqual(10);
  });

  it('lists the template in the catalogue with its verdict', async () => {
    await page.getByRole('button', { name: 'Templates' }).click();
    const catalogue = page.getByRole('table', { name: /Template catalogue of / });
    await expect.poll(() => catalogue.getByRole('row', { name: /debian-13-amd64/ }).textContent(), poll).toContain('Suitable');
    await screenshot();
  });
});
