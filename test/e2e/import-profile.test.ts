/**
 * Issue 26 end to end: a providers-config entry pasted into Take in manifests…
 * becomes a cluster through the connect wizard, against a second simulated
 * cluster. The wizard opens on the entry's URL; the token is pasted (the
 * entry's tokenFile is never read); the entry's insecureSkipTLSVerify does not
 * skip the trust step; the last page is ticked from the entry, kept to what
 * the cluster has (a node it lacks said and left out); and the saved cluster
 * holds the entry's fields the page has no input for.
 */
import { expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startSimulator, type Simulator } from '../../main/simulator';
import { describeE2e, type E2eOptions } from '../support/e2e';
import { screenshotPath } from '../support/screenshots';

let sim: Simulator;
const setup: E2eOptions = {
  before: async () => {
    sim = await startSimulator({ dataset: 'minimal', timeScale: 0.01 });
  },
  host: { demoTimeScale: 0.02, monitoring: { health: { intervalMs: 500 } } },
  viewport: { width: 1280, height: 800 },
  after: async () => sim?.close(),
};
const poll = { timeout: 15_000 };

describeE2e('a providers-config entry taken in becomes a cluster through the wizard', setup, ({ page, host }) => {
  const wizard = () => page.getByRole('dialog', { name: 'Connect a cluster' });

  it('opens the wizard on the entry, asks for the token and the trust, and saves what the entry gave', async () => {
    const yaml = stringify([
      {
        name: 'proxmox-lab',
        type: 'proxmox',
        proxmox: {
          url: sim.url,
          tokenFile: '/etc/proxy-operator/proxmox/token',
          insecureSkipTLSVerify: true,
          nodes: ['pv1-1', 'pv1-9'],
          isoStorage: 'proxy-seeds',
          storage: 'local-lvm',
          bridge: 'vmbr1',
          vlanTag: 4,
          vmidRange: { min: 120_000, max: 129_999 },
          templates: { 'debian-13': { vmid: 9001 } },
          machineTypes: { small: { cores: 1, memoryMiB: 1024 }, big: { cores: 4, memoryMiB: 4096, diskGiB: 20 } },
          requestTimeoutSeconds: 60,
          installGuestAgent: false,
        },
      },
    ]);
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('group', { name: 'Actions on the selection' }).getByRole('button', { name: 'Take in manifests…' }).click();
    const take = () => page.getByRole('dialog', { name: 'Take in manifests' });
    await take().getByLabel('Manifests (YAML)').fill(yaml);
    await take().getByRole('button', { name: 'Check' }).click();
    await take().getByRole('button', { name: 'Make a cluster profile from proxmox-lab' }).click();
    await expect.poll(() => wizard().count(), poll).toBe(1);
    expect(await wizard().getByLabel('Cluster URL').inputValue()).toBe(sim.url);
    await wizard().getByLabel('Token ID').fill(sim.tokens.operator!.tokenId);
    await wizard().getByLabel('Token secret').fill(sim.tokens.operator!.secret);
    await wizard().getByRole('button', { name: 'Check connection' }).click();
    // insecureSkipTLSVerify: true in the entry is not the app's trust: the certificate is asked about.
    await expect.poll(() => wizard().getByRole('heading', { name: '2. Trust the certificate' }).count(), poll).toBe(1);
    await wizard()
      .getByRole('radio', { name: /pin its fingerprint/ })
      .check();
    await wizard().getByRole('button', { name: 'Trust this certificate and continue' }).click();
    await expect.poll(() => wizard().getByRole('heading', { name: '4. Choose what to use' }).count(), poll).toBe(1);
    expect(await wizard().getByLabel('Cluster name').inputValue()).toBe('proxmox-lab');
    expect(await wizard().getByRole('group', { name: 'Nodes' }).getByRole('checkbox', { name: /pv1-1/ }).isChecked()).toBe(true);
    expect(await wizard().getByLabel('Seed storage').inputValue()).toBe('proxy-seeds');
    expect(await wizard().getByLabel('Bridge', { exact: true }).inputValue()).toBe('vmbr1');
    expect(await wizard().getByLabel('Lowest VMID').inputValue()).toBe('120000');
    expect(await wizard().getByLabel('Machine type name').inputValue()).toBe('small');
    expect(
      await wizard()
        .getByRole('group', { name: 'Templates' })
        .getByRole('checkbox', { name: /\(9001 on/ })
        .isChecked(),
    ).toBe(true);
    const seed = wizard().getByRole('region', { name: 'From the providers-config entry' });
    expect(await seed.textContent()).toContain('nodes: pv1-9 from the entry is not in this cluster, so left out.');
    for (const [width, height, theme] of [
      [1024, 720, 'dark'],
      [1280, 800, 'light'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      const box = await wizard().boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width, `${width} ${theme}`).toBe(true);
      await page.screenshot({ path: screenshotPath(`import-profile-choices-${width}-${theme}.png`) });
    }
    await wizard().getByRole('button', { name: 'Save cluster' }).click();
    await expect.poll(() => wizard().count(), poll).toBe(0);
    const saved = (await host.app.profiles.list()).profiles.find((p) => p.name === 'proxmox-lab');
    expect(saved).toMatchObject({
      url: sim.url,
      tls: { mode: 'pin' },
      token: { tokenId: sim.tokens.operator!.tokenId },
      nodes: ['pv1-1'],
      isoStorage: 'proxy-seeds',
      storage: 'local-lvm',
      bridge: 'vmbr1',
      vlanTag: 4,
      vmidRange: { min: 120_000, max: 129_999 },
      templates: { 'debian-13': { vmid: 9001 } },
      machineTypes: { small: { cores: 1, memoryMiB: 1024 }, big: { cores: 4, memoryMiB: 4096, diskGiB: 20 } },
      requestTimeoutSeconds: 60,
      installGuestAgent: false,
    });
  });
});
