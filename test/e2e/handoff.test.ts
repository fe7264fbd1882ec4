/**
 * Issue 26 end to end, in Chromium against the simulated demo: two proxies
 * selected, Hand to Kubernetes… opens on the provider name, and main's
 * answer shows: the demo's proxies were not made by a seed of this app, so
 * their user-data is unknown and the operator cannot take them; that is
 * said in words, and Save and Release stay off. Two proxies made here: the
 * bundle's files are listed; ticking "Include the API token as a file"
 * (by keyboard) asks its own warning, then lists proxmox-token as holding a
 * secret, the token's text nowhere in the window. The dialog fits at 1024×700
 * and 1280×800, light and dark, with no axe violation and nothing off screen;
 * Escape closes it. A providers-config entry taken in opens the connect
 * wizard with its URL and nodes; one whose URL is connected offers that cluster.
 */
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { formatLayoutProblems, pageLayoutProblems } from '../support/layout-check';
import { screenshotPath } from '../support/screenshots';

const SAMPLE = join(__dirname, '../../../shared/seeds/extracted/sample-proxy-proxmox.yaml');

const poll = { timeout: 30_000 };
const squid = 'proxy-a7k2m9x4q1w8e5r3t6';
const socks = 'proxy-b3n8v5c2x7z4l9k1j6';
const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 } };
const sizes = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
] as const;

describeE2e('handing proxies to Kubernetes in the browser against the demo', setup, ({ page, host, demo: demoCluster }) => {
  const dialog = () => page.getByRole('dialog', { name: 'Hand to Kubernetes' });

  it('says in words why the operator cannot take the demo’s proxies, and fits every size and theme', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    for (const name of [squid, socks]) {
      await expect.poll(() => page.getByRole('row').filter({ hasText: name }).count(), poll).toBe(1);
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Hand to Kubernetes…' }).click();
    expect(await page.evaluate(() => document.activeElement?.closest('.field')?.querySelector('label')?.textContent)).toBe('Provider name');
    const refusals = dialog().getByRole('alert', { name: 'What the operator cannot take' });
    await expect.poll(() => refusals.textContent().catch(() => ''), poll).toContain(`Egress Desk does not know ${squid}'s user-data`);
    expect(await refusals.textContent()).toContain(`Egress Desk does not know ${socks}'s user-data`);
    expect(await dialog().getByRole('button', { name: 'Save bundle…' }).isDisabled()).toBe(true);
    expect(await dialog().getByRole('button', { name: /^Release/ }).isDisabled()).toBe(true);
    // A provider name the operator refuses is said before any request.
    await dialog().getByLabel('Provider name').fill('Home Lab');
    await expect.poll(() => dialog().getByText('Lowercase letters, digits and dashes, like proxmox-home.').count(), poll).toBe(1);
    await dialog().getByLabel('Provider name').fill('home-lab');

    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `the Hand to Kubernetes dialog at ${size.width}×${size.height}, ${theme}`;
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`handoff-refused-${size.width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count(), poll).toBe(0);
  });

  it('two proxies made here: the bundle lists its files, Release hands both over, Undo takes one back', async () => {
    const demo = (await host.app.profiles.list()).profiles.find((p) => p.demo)!;
    const demoId = demo.id;
    // On pv1-1 this image clones its default template (a per-node one there is what the operator cannot express).
    const image = 'debian-13-template';
    expect(demo.templates[image]?.perNode?.['pv1-1'] ?? demo.templates[image]?.vmid).toBe(demo.templates[image]?.vmid);
    const userData = '#cloud-config\npackages: [squid]\nwrite_files:\n  - path: /etc/squid/conf.d/e.conf\n    content: |\n      http_port 3128\n';
    const made = await host.app.tasks.createProxies({ clusterId: demoId, node: 'pv1-1', template: image, machineType: 'small', name: 'hand', count: 2, cloudInit: userData });
    const outcome = (id: string) => {
      const t = host.app.tasks.list().find((x) => x.id === id);
      return t?.state === 'failed' ? `failed: ${t.error?.message ?? t.message ?? ''}` : t?.state;
    };
    for (const id of made.taskIds) await expect.poll(() => outcome(id), poll).toBe('succeeded');
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await page.reload();
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    for (const name of ['hand-1', 'hand-2']) {
      await expect.poll(() => row(name).count(), poll).toBe(1);
      await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    const open = () => page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Hand to Kubernetes…' }).click();
    await open();
    const files = dialog().getByRole('region', { name: 'Bundle' });
    await expect.poll(() => files.textContent().catch(() => ''), poll).toContain('proxies/hand-1.yaml');
    for (const f of ['providers-config-entry.yaml', 'proxmox-ca.pem', 'create-token-secret.sh', 'proxies/hand-2.yaml', 'kustomization.yaml', 'README.md'])
      expect(await files.textContent()).toContain(f);
    const tokenFile = files.getByRole('listitem').filter({ has: page.locator('code', { hasText: /^proxmox-token$/ }) });
    expect(await tokenFile.count()).toBe(0);
    // The token, by keyboard: its own warning first, then the file listed as holding a secret (its text never sent).
    const tokenBox = dialog().getByRole('checkbox', { name: 'Include the API token as a file (0600)' });
    await tokenBox.focus();
    await page.keyboard.press('Space');
    const consent = dialog().getByRole('alert', { name: 'The API token in the bundle' });
    await expect.poll(() => consent.count(), poll).toBe(1);
    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `the token warning at ${size.width}×${size.height}, ${theme}`;
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await consent.scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`handoff-token-warning-${size.width}-${theme}.png`) });
      }
    }
    await consent.getByRole('button', { name: 'Include the token' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tokenFile.textContent().catch(() => ''), poll).toContain('holds a secret');
    const demoToken = demoCluster.sim.tokens.admin!.secret;
    expect(await dialog().textContent()).not.toContain(demoToken);
    expect(await dialog().getByRole('button', { name: 'Release (2)' }).isDisabled()).toBe(true);
    await dialog().getByLabel(/I saved the bundle/).check();
    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `the bundle at ${size.width}×${size.height}, ${theme}`;
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`handoff-bundle-${size.width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog().getByRole('button', { name: 'Release (2)' }).click();
    await expect.poll(() => dialog().getByRole('status').textContent().catch(() => ''), poll).toContain('Releasing 2 proxies');
    await page.keyboard.press('Escape');
    for (const name of ['hand-1', 'hand-2']) await expect.poll(() => row(name).textContent(), poll).toContain('handed to the operator');
    await page.screenshot({ path: screenshotPath('handoff-handed-1280-light.png') });
    // Undo one: hand-2 alone.
    await page.getByRole('checkbox', { name: 'Select hand-1' }).uncheck();
    await open();
    await dialog().getByRole('button', { name: 'Undo release (1)' }).click();
    await expect.poll(() => dialog().getByRole('status').textContent().catch(() => ''), poll).toContain('Taking back 1 proxy');
    await page.keyboard.press('Escape');
    await expect.poll(() => row('hand-2').textContent(), poll).not.toContain('handed to the operator');
    expect(await row('hand-1').textContent()).toContain('handed to the operator');
    await page.screenshot({ path: screenshotPath('handoff-undone-1280-light.png') });
  });

  it('takes in the seeds’ sample Proxy: a misfit said in words, then made as the app’s own proxy', async () => {
    const sample = readFileSync(SAMPLE, 'utf8');
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Take in manifests…' }).click();
    const take = () => page.getByRole('dialog', { name: 'Take in manifests' });
    // Opened from its file, as a user picks it (Open files…).
    await take().getByLabel('Manifest files').setInputFiles(SAMPLE);
    await expect.poll(() => take().getByText('Read sample-proxy-proxmox.yaml.').count(), poll).toBe(1);
    expect(await take().getByLabel('Manifests (YAML)').inputValue()).toBe(`${sample.trimEnd()}\n`);
    await take().getByRole('button', { name: 'Check' }).click();
    const problems = take().getByRole('alert', { name: 'What cannot be taken' });
    await expect.poll(() => problems.textContent().catch(() => ''), poll).toMatch(/proxy-proxmox-sample: image "debian-13" is not a template of/);
    expect(await take().getByRole('button', { name: /^Create/ }).isDisabled()).toBe(true);
    await take().getByLabel('Manifests (YAML)').fill(sample.replace('image: debian-13', 'image: debian-13-template'));
    await take().getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => take().getByRole('region', { name: 'Proxies found' }).textContent().catch(() => ''), poll).toContain('proxy-proxmox-sample');
    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `Take in manifests at ${size.width}×${size.height}, ${theme}`;
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`handoff-import-${size.width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await take().getByRole('button', { name: 'Create 1 proxy' }).click();
    await expect.poll(() => take().getByRole('status').textContent().catch(() => ''), poll).toContain('Creating 1 proxy');
    // The Create button is gone once clicked (focus fell to the page): Escape still closes the dialog.
    await page.keyboard.press('Escape');
    await expect.poll(() => take().count(), poll).toBe(0);
    const made = () => host.app.tasks.list().find((t) => t.target === 'proxy-proxmox-sample' && t.kind === 'create-proxy');
    await expect.poll(() => made()?.state, poll).toBe('succeeded');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'proxy-proxmox-sample' }).count(), poll).toBe(1);
    expect(await page.getByRole('row').filter({ hasText: 'proxy-proxmox-sample' }).textContent()).not.toContain('operator-made');
  });
  it('takes in a providers-config entry: Make a cluster profile opens the wizard on its URL and nodes; a connected URL offers that cluster', async () => {
    const demo = (await host.app.profiles.list()).profiles.find((p) => p.demo)!;
    const entry = (name: string, url: string) => ({
      name,
      type: 'proxmox',
      proxmox: {
        url,
        tokenFile: '/etc/proxy-operator/proxmox/token',
        caFile: '/etc/proxy-operator/proxmox/ca.pem',
        insecureSkipTLSVerify: true,
        nodes: ['pv7-1', 'pv7-2'],
        isoStorage: 'proxy-seeds',
        vlanTag: 4,
        templates: { 'debian-13': { vmid: 9001 } },
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
      },
    });
    const yaml = stringify([entry('proxmox-garage', 'https://192.168.7.8:8006'), entry('proxmox-demo', demo.url)]);
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Take in manifests…' }).click();
    const take = () => page.getByRole('dialog', { name: 'Take in manifests' });
    await take().getByLabel('Manifests (YAML)').fill(yaml);
    await take().getByRole('button', { name: 'Check' }).click();
    const offers = take().getByRole('region', { name: 'Cluster profiles in the text' });
    await expect.poll(() => offers.getByRole('button', { name: 'Make a cluster profile from proxmox-garage' }).count(), poll).toBe(1);
    const words = (await offers.textContent()) ?? '';
    expect(words).toContain('paste the token ID and secret in the wizard');
    expect(words).toContain('insecureSkipTLSVerify: true is not carried over');
    // The demo's URL is connected already: that cluster is offered, not a duplicate.
    expect(words).toContain(`${demo.name} is already connected at this URL`);
    expect(await offers.getByRole('button', { name: 'Make a cluster profile from proxmox-demo' }).count()).toBe(0);
    expect(await offers.getByRole('button', { name: `Open ${demo.name}` }).count()).toBe(1);
    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `Take in manifests with providers-config entries at ${size.width}×${size.height}, ${theme}`;
        await offers.getByRole('button', { name: `Open ${demo.name}` }).scrollIntoViewIfNeeded();
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`handoff-import-entry-${size.width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });

    await offers.getByRole('button', { name: 'Make a cluster profile from proxmox-garage' }).click();
    const wizard = () => page.getByRole('dialog', { name: 'Connect a cluster' });
    await expect.poll(() => wizard().count(), poll).toBe(1);
    expect(await take().count()).toBe(0);
    expect(await wizard().getByLabel('Cluster URL').inputValue()).toBe('https://192.168.7.8:8006');
    // The token is the user's to give: nothing is filled from the entry's token file.
    expect(await wizard().getByLabel('Token ID').inputValue()).toBe('');
    expect(await wizard().getByLabel('Token secret').inputValue()).toBe('');
    const seed = wizard().getByRole('region', { name: 'From the providers-config entry' });
    const seedText = (await seed.textContent()) ?? '';
    expect(seedText).toContain('Nodespv7-1, pv7-2');
    expect(seedText).toContain('VLAN tag4');
    expect(seedText).toContain('debian-13 (9001)');
    expect(seedText).toContain('choose the CA (or pin the certificate) at the wizard’s trust step');
    for (const size of sizes) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const where = `the connect wizard from an entry at ${size.width}×${size.height}, ${theme}`;
        const v = await axeViolations(page, '[role="dialog"]');
        expect(v, formatViolations(where, v)).toEqual([]);
        const layout = await pageLayoutProblems(page, '[role="dialog"]');
        expect(layout, formatLayoutProblems(where, layout)).toEqual([]);
        await page.screenshot({ path: screenshotPath(`handoff-entry-wizard-${size.width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await expect.poll(() => wizard().count(), poll).toBe(0);
    // Connect a cluster on its own opens empty: the entry is not kept for the next wizard.
    await page.getByRole('button', { name: 'Connect a cluster' }).click();
    await expect.poll(() => wizard().count(), poll).toBe(1);
    expect(await wizard().getByLabel('Cluster URL').inputValue()).toBe('');
    expect(await wizard().getByRole('region', { name: 'From the providers-config entry' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // Open <demo> goes to that cluster's catalogue.
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Take in manifests…' }).click();
    await take().getByLabel('Manifests (YAML)').fill(yaml);
    await take().getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => offers.getByRole('button', { name: `Open ${demo.name}` }).count(), poll).toBe(1);
    await offers.getByRole('button', { name: `Open ${demo.name}` }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Templates', exact: true }).getAttribute('aria-current'), poll).toBe('page');
    expect(await take().count()).toBe(0);
  });
});
