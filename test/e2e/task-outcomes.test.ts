/**
 * Issue 12 end to end, in browser mode on a fresh data folder: a create on
 * the demo ends when the proxy has its address (shown in the task with
 * Copy, Open in Proxies and Test, and told by a toast); a permanent failure
 * offers no Retry; a cancel stops the Proxmox task and says so; and a
 * cluster whose session-only secret is gone after a host restart gets one
 * banner, with Enter secret, in every view.
 */
import { expect, it } from 'vitest';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { startTestHost } from '../support/web-host';

const poll = { timeout: 30_000 };

const usable: E2eOptions = { host: demoHost, dataDir: 'outcomes', viewport: { width: 1280, height: 900 } };

describeE2e('a create is done when the proxy is usable', usable, ({ page, demo }) => {
  async function create(name: string): Promise<void> {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('button', { name: 'New proxy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByRole('option', { name: 'debian-13-template' }).count(), poll).toBeGreaterThan(0);
    await dialog.getByLabel('Template').selectOption('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    await page.getByRole('button', { name: 'Tasks', exact: true }).click();
  }

  it('shows the address in the task, with Copy, Open in Proxies and Test, and a toast', async () => {
    await create('e2e-address');
    const details = page.getByRole('article', { name: 'Task Create e2e-address' });
    await expect.poll(() => details.getByLabel('Parts of the create').textContent(), poll).toBe('Proxmox: done · address: ready');
    const address = (await details.getByLabel('Address', { exact: true }).textContent()) ?? '';
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(await details.getByRole('button', { name: 'Copy address' }).count()).toBe(1);
    const toast = page.getByRole('list', { name: 'Notifications' });
    await expect.poll(() => toast.textContent(), poll).toContain('e2e-address is ready');
    await details.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => details.getByRole('region', { name: 'Proxy test' }).count(), poll).toBe(1);
    await details.getByRole('button', { name: 'Open in Proxies' }).click();
    // The Proxies view has it selected, with its drawer open.
    await expect.poll(() => page.getByRole('complementary').filter({ hasText: 'e2e-address' }).count(), poll).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(address).first().isVisible(), poll).toBe(true);
  });

  it('a permanent failure offers no Retry, the fix in words and where to fix it', async () => {
    // Every copy of the template is turned into a plain VM: the create fails for good at its lookup.
    const templates = [...demo.sim.state.vms.values()].filter((vm) => vm.template && vm.config.name === 'debian-13-template');
    expect(templates.length).toBeGreaterThan(0);
    for (const vm of templates) vm.template = false;
    try {
      await create('e2e-permanent');
      const details = page.getByRole('article', { name: 'Task Create e2e-permanent' });
      await expect.poll(() => details.textContent(), poll).toMatch(/failed/);
      expect(await details.getByRole('group', { name: 'How to fix it' }).count(), (await details.textContent()) ?? '').toBe(1);
      expect(await details.getByRole('button', { name: 'Retry' }).count()).toBe(0);
      expect(await details.getByRole('button', { name: 'Clean up' }).count()).toBe(0);
      expect(await details.getByRole('button', { name: 'Open Templates' }).count()).toBe(1);
      expect(await details.getByText('pending', { exact: true }).count()).toBe(0);
    } finally {
      for (const vm of templates) vm.template = true;
    }
  });

  it('cancel stops the Proxmox task and says so; no step stays pending', async () => {
    demo.sim.faults.hangTask({ type: 'qmclone' }, 1);
    await create('e2e-cancel');
    const details = page.getByRole('article', { name: 'Task Create e2e-cancel' });
    await expect.poll(() => details.getByRole('region', { name: 'Steps' }).textContent(), poll).toMatch(/running\s*clone/i);
    await details.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => details.textContent(), poll).toContain('Stopped the Proxmox task qmclone');
    await expect.poll(() => details.getByRole('region', { name: 'Steps' }).textContent(), poll).toMatch(/cancelled\s*clone/);
    expect(await details.getByText('pending', { exact: true }).count()).toBe(0);
    expect(await details.getByText('not run', { exact: true }).count()).toBeGreaterThan(0);
  });
});

const secretGone: E2eOptions = {
  dataDir: 'secret',
  /** A host before this one saved a cluster whose secret lives only for its session. */
  before: async (e) => {
    const first = await startTestHost({ dataDir: e.dataDir, demo: 'off' });
    await first.app.profiles.save({
      profile: {
        name: 'homelab',
        // Loopback and a closed port: nothing here reaches a real host, and nothing is asked without the secret anyway.
        url: 'https://127.0.0.1:9',
        tls: {
          mode: 'pin',
          fingerprint: 'AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99',
        },
        token: { secretStorage: 'session', tokenId: 'proxy@pve!ops' },
        nodes: ['pv1-1'],
        isoStorage: 'proxy-seeds',
        templates: { debian: { vmid: 9001 } },
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
      },
      secret: '8f0c2b7e-3d1a-4c5b-9e6f-7a8b9c0d1e2f',
    });
    await first.close();
  },
  host: { demo: 'off' },
  viewport: { width: 1280, height: 900 },
};

describeE2e('a session-only secret gone after a host restart', secretGone, ({ page }) => {
  it('shows one banner with Enter secret in every view, and nothing says degraded or empty', async () => {
    for (const view of ['Overview', 'Nodes', 'Templates', 'Proxies', 'Tasks', 'Cleanup', 'Settings']) {
      await page.getByRole('button', { name: view, exact: true }).click();
      const banner = page.getByRole('region', { name: 'Token secret needed' });
      await expect.poll(() => banner.count(), poll).toBe(1);
      expect(await banner.getByRole('button', { name: 'Enter secret' }).count(), view).toBe(1);
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text, view).not.toMatch(/Degraded|No proxies yet|Template missing/);
    }
    await page.getByRole('button', { name: 'Overview', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Health of homelab' }).textContent(), poll)
      .toBe('Not checked: the token secret is needed');
    await page.getByRole('region', { name: 'Token secret needed' }).getByRole('button', { name: 'Enter secret' }).click();
    expect(await page.getByRole('dialog', { name: 'Token secret for homelab' }).count()).toBe(1);
  });
});
