/**
 * Issue 13 end to end, in Chromium against the browser-mode host on one data
 * folder: main goes away during a view, and the page says within 5 s that
 * what it shows is stale, turns the actions off with the reason, and comes
 * back by itself, without a reload, when a host starts again on the same
 * port with the same run key (what the CLI does from its data folder).
 * Killed during a create, the task shows what the journal says after the
 * restart (interrupted, with Resume); killed while a create request is in
 * flight, the Create dialog answers within 5 s instead of hanging on
 * "Starting…", and after the restart the window says the outcome is unknown.
 */
import { beforeAll, expect, it } from 'vitest';
import type { TaskView } from '../../shared/channels/tasks';
import type { Router } from '../../main/ipc/router';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const withinFive = { timeout: 5_000, intervals: [100] };

/** Requests on these channels get no answer while listed: in flight when main goes. */
const held = new Set<string>();
const hold = (router: Router): Router => ({
  ...router,
  dispatch: (channel, input, ctx) => (held.has(String(channel)) ? new Promise(() => undefined) : router.dispatch(channel, input, ctx)),
});
const setup: E2eOptions = { host: { ...demoHost, wrapRouter: hold }, dataDir: 'connection', viewport: { width: 1280, height: 800 } };

describeE2e('main lost and back, seen from the page', setup, ({ host: t, page, stopHost, startHost }) => {
  let port = 0;
  let key = '';
  let navigations = 0;

  beforeAll(async () => {
    ({ port, key } = t.host);
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    // Survives only if the page is never reloaded.
    await page.evaluate(() => ((window as unknown as { __marker: string }).__marker = 'same page'));
  });

  /** Main goes away: its sockets are cut and its services stop, as when the process dies. */
  const kill = () => stopHost();
  /** Main again on the same data folder, port and run key. */
  const restart = () => startHost({ host: { port, key } });
  const banner = () => page.getByRole('alert', { name: 'Not connected' });
  const marker = () => page.evaluate(() => (window as unknown as { __marker?: string }).__marker);

  it('during a view: stale within 5 s, actions off with the reason, then back by itself without a reload', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await expect.poll(() => page.getByRole('row').count(), poll).toBeGreaterThan(1);
    const newProxy = page.getByRole('button', { name: 'New proxy' }).first();
    expect(await newProxy.isEnabled()).toBe(true);

    await kill();
    await expect.poll(() => banner().count(), withinFive).toBe(1);
    expect(await banner().textContent()).toMatch(/Not connected to Egress Desk since \d\d:\d\d:\d\d — showing data from then/);
    expect(await page.locator('.stale-frame[data-stale]').count()).toBe(1);
    expect(await newProxy.isDisabled()).toBe(true);
    expect(await newProxy.getAttribute('title')).toMatch(/Not connected to Egress Desk/);
    expect(await page.getByRole('button', { name: /Delete selected/ }).isDisabled()).toBe(true);
    // The data stays on screen, marked stale, not emptied.
    expect(await page.getByRole('row').count()).toBeGreaterThan(1);

    await restart();
    await expect.poll(() => banner().count(), poll).toBe(0);
    expect(await page.locator('.stale-frame[data-stale]').count()).toBe(0);
    expect(await newProxy.isEnabled()).toBe(true);
    expect(await page.getByRole('status', { name: 'Connection' }).textContent()).toContain('Connected to main');
    // Re-read from the new main, not left from before.
    await expect.poll(() => page.getByRole('row').count(), poll).toBeGreaterThan(1);
    expect(await marker()).toBe('same page');
    expect(navigations).toBe(0);
  });

  it('during a create: after the restart the task is what the journal says (interrupted, with Resume)', async () => {
    const demo = await t.demo!;
    // The clone never finishes: the create is still running when main goes.
    demo.sim.faults.hangTask({ type: 'qmclone' }, 1);
    await openCreate('e2e-lost-task');
    await page.getByRole('dialog', { name: 'Create proxy' }).getByRole('button', { name: 'Create proxy' }).click();
    const details = page.getByRole('article', { name: 'Task Create e2e-lost-task' });
    await expect.poll(() => details.getByRole('region', { name: 'Steps' }).textContent(), poll).toMatch(/running\s*Clone/i);

    await kill();
    await expect.poll(() => banner().count(), withinFive).toBe(1);
    expect(await details.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await restart();
    await expect.poll(() => banner().count(), poll).toBe(0);

    // What the new main read from the journal: the page must show the same.
    const listed = await t.app.router.dispatch('tasks.list', {}, { signal: new AbortController().signal, transport: 'test' });
    const tasks = listed.ok ? (listed.value as { tasks: TaskView[] }).tasks : [];
    expect(tasks.map((x) => x.state)).toContain('interrupted');
    await expect.poll(() => details.textContent(), poll).toContain('interrupted');
    expect(await details.getByRole('button', { name: 'Resume' }).isEnabled()).toBe(true);
    expect(await marker()).toBe('same page');
    expect(navigations).toBe(0);
  });

  it('while a create request is in flight: the dialog answers within 5 s, and the outcome is called unknown after the restart', async () => {
    held.add('tasks.createProxies');
    await openCreate('e2e-lost-request');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    await expect.poll(() => dialog.getByRole('button', { name: 'Starting…' }).count(), poll).toBe(1);

    await kill();
    const started = Date.now();
    await expect.poll(() => dialog.textContent(), withinFive).toContain("Egress Desk's main process did not answer");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await dialog.textContent()).toContain('may not have completed');
    expect(await dialog.getByRole('button', { name: 'Starting…' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Create proxy' }).isDisabled()).toBe(true);

    held.clear();
    await restart();
    const unknown = page.getByRole('region', { name: 'Unknown outcome' });
    await expect.poll(() => unknown.count(), poll).toBe(1);
    expect(await unknown.textContent()).toContain('Unknown outcome: check Tasks.');
    expect(await dialog.getByRole('button', { name: 'Create proxy' }).isEnabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const discard = page.getByRole('button', { name: /^Discard/ });
    if (await discard.count()) await discard.first().click();
    await expect.poll(() => dialog.count(), poll).toBe(0);
    await unknown.getByRole('button', { name: 'Open Tasks' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Tasks', level: 1 }).count(), poll).toBe(1);
    expect(await marker()).toBe('same page');
    expect(navigations).toBe(0);
  });

  async function openCreate(name: string): Promise<void> {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('button', { name: 'New proxy' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByRole('option', { name: 'debian-13-template' }).count(), poll).toBeGreaterThan(0);
    await dialog.getByLabel('Template').selectOption('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  }
});
