/**
 * Tasks end to end: a create whose clone hangs is left running when the
 * host process stops; a new host on the same data folder lists it as
 * interrupted, and Resume finishes it. The status bar counts running tasks
 * from any view and opens the task panel, one click from a task's log; a
 * task's Proxmox log is still there after leaving the Tasks view and coming
 * back.
 */
import { beforeAll, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };

const setup: E2eOptions = { host: demoHost, dataDir: 'tasks', viewport: { width: 1280, height: 800 } };

describeE2e('tasks across a restart of the host process', setup, ({ host: t, page, demo, stopHost, startHost }) => {
  beforeAll(() => {
    // The next clone never finishes: the create stays running until the host stops.
    demo.sim.faults.hangTask({ type: 'qmclone' }, 1);
  });

  const details = () => page.getByRole('article', { name: 'Task Create e2e-resume' });

  it('a running create is counted in the status bar from any view', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('button', { name: 'New proxy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByRole('option', { name: 'debian-13-template' }).count(), poll).toBeGreaterThan(0);
    await dialog.getByLabel('Template').selectOption('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e-resume');
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    await expect.poll(() => details().getByRole('region', { name: 'Steps' }).textContent(), poll).toMatch(/running\s*Clone/i);
    await page.getByRole('button', { name: 'Overview' }).click();
    expect(await page.getByRole('status', { name: 'Running tasks' }).textContent()).toBe('1 task running');
  });

  it('the status bar opens the task panel from another view; one click there shows the task and its log', async () => {
    await page.getByRole('button', { name: 'Nodes', exact: true }).click();
    await page.getByRole('status', { name: 'Running tasks' }).getByRole('button', { name: '1 task running' }).click();
    const panel = page.getByRole('region', { name: 'Running and recent tasks' });
    const row = panel.getByRole('row').filter({ hasText: 'Create e2e-resume' });
    await expect.poll(() => row.textContent(), poll).toMatch(/running/);
    expect(await row.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await page.screenshot({ path: screenshotPath('task-panel.png') });
    await panel.getByRole('button', { name: 'Show the log of Create e2e-resume' }).click();
    expect(await page.getByRole('region', { name: 'Running and recent tasks' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Tasks', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => details().getByRole('log').textContent(), poll).toMatch(/\S/);
    expect(
      await page
        .getByRole('table', { name: 'Tasks' })
        .getByRole('row', { name: /Create e2e-resume/ })
        .getAttribute('aria-current'),
    ).toBe('true');
    await page.getByRole('button', { name: 'Overview' }).click();
  });

  it('keeps the task log after leaving the Tasks view', async () => {
    await page.getByRole('button', { name: 'Tasks', exact: true }).click();
    const log = details().getByRole('log');
    await expect.poll(() => log.textContent(), poll).toMatch(/\S/);
    const before = await log.textContent();
    await page.getByRole('button', { name: 'Cleanup' }).click();
    await page.getByRole('button', { name: 'Tasks', exact: true }).click();
    expect(await details().getByRole('log').textContent()).toBe(before);
  });

  it('after the host restarts on the same data folder, the task is interrupted; Resume finishes it', async () => {
    await stopHost();
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).textContent(), poll).toContain('Disconnected');
    await startHost();
    await page.goto(t.host.url);
    await page.getByRole('button', { name: 'Tasks', exact: true }).click();
    await expect.poll(() => details().textContent(), poll).toContain('interrupted');
    expect(await details().getByRole('button', { name: 'Clean up' }).count()).toBe(1);
    await details().getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => details().getByText('succeeded', { exact: true }).first().isVisible(), poll).toBe(true);
    await expect.poll(() => details().getByRole('log').textContent(), poll).toContain('TASK OK');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      await page.screenshot({ path: screenshotPath(`tasks-${theme}.png`) });
    }
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search proxies' }).fill('e2e-resume');
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'e2e-resume' }).textContent(), poll)
      .toMatch(/running\d+\.\d+\.\d+\.\d+/);
  });
});
