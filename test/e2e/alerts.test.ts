/**
 * Alerts in the browser against the simulated demo: the demo's failing
 * proxy (150003, its loopback tinyproxy answering 502) fails two checks in
 * a row, and without the user opening anything the Nav's Alerts item
 * counts one open alert and a notice says so (browser mode's toast, the
 * desktop notification's stand-in); the Alerts view lists it with its
 * reason and hint; Acknowledge takes it out of the count, in this window
 * and at once in a second one (`alert.acknowledged`). Axe finds no
 * violation on the view, empty or not, in either theme.
 */
import { beforeAll, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_BROKEN_VMID } from '../../main/services/demo/demo-proxies';
import type { InventorySnapshot } from '../../shared/channels/inventory';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const ctx = { signal: new AbortController().signal, transport: 'test' };

const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 }, goto: false };

describeE2e('alerts in the browser against the demo', setup, ({ host: t, page, problems, newPage }) => {
  /** A second window on the same main, also on Alerts: it must follow an acknowledge made in the first. */
  let other: Page;

  const alertsNav = (p = page) => p.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: /^Alerts/ });
  const egressRow = (p = page) => p.getByRole('table', { name: 'Alerts' }).getByRole('row').filter({ hasText: 'Egress failing' });

  async function noViolations(where: string) {
    const violations = await axeViolations(page, 'main');
    expect(violations, formatViolations(where, violations)).toEqual([]);
  }

  beforeAll(async () => {
    // The failing proxy needs its address (the guest agent's) before it can be checked.
    await vi.waitFor(
      async () => {
        const answer = await t.app.router.dispatch('inventory.snapshot', { clusterId: 'demo' }, ctx);
        const snap = answer.ok ? (answer.value as InventorySnapshot) : undefined;
        expect(snap?.clusters[0]?.vms.find((v) => v.vmid === DEMO_BROKEN_VMID)?.address).toBeTruthy();
      },
      { timeout: 30_000, interval: 100 },
    );
    await page.goto(t.host.url);
    await alertsNav().click();
    other = await newPage({ width: 1280, height: 800 });
    await other.goto(t.host.url);
    await alertsNav(other).click();
  });

  it('says what it watches while nothing is wrong', async () => {
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Alerts');
    await expect.poll(() => page.getByText('No alerts').count(), poll).toBe(1);
    expect(await page.getByRole('main').textContent()).toMatch(/checks your proxies every 5 minutes/);
    expect(await alertsNav().textContent()).toBe('Alerts');
    await noViolations('Alerts, empty');
  });

  it('raises "egress failing" on the second failed check, with its reason, in the Nav, a notice and the list', async () => {
    // Two checks of the failing proxy (Test counts as a check: a scheduled one runs the same code). A Test that meets a
    // scheduled check of the same proxy under way may be turned away; that scheduled check counts the same.
    const answers: unknown[] = [];
    for (let done = 0; done < 2 && answers.length < 10;) {
      const answer = await t.app.router.dispatch(
        'proxies.test',
        { clusterId: 'demo', vmid: DEMO_BROKEN_VMID, protocol: 'http', port: 8888 },
        ctx,
      );
      answers.push(answer);
      if (answer.ok) done++;
    }
    expect(
      answers.filter((a) => (a as { ok: boolean }).ok),
      JSON.stringify(answers),
    ).toHaveLength(2);
    await expect.poll(() => alertsNav().textContent(), poll).toBe('Alerts1 (1 open)');
    const notice = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Alert: Egress failing' });
    await expect.poll(() => notice.count(), poll).toBe(1);
    await expect.poll(() => egressRow().count(), poll).toBe(1);
    const row = await egressRow().textContent();
    expect(row).toMatch(/open/);
    expect(row).toMatch(new RegExp(`failed 2 times in a row: .*502`));
    expect(row).toMatch(/check the VM's own internet access/);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
      await noViolations(`Alerts, one open (${theme})`);
      await page.screenshot({ path: screenshotPath(`alerts-${theme}.png`), fullPage: true });
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  });

  it('acknowledges from the keyboard: the alert stays listed, the count goes, in every window at once', async () => {
    await expect.poll(() => alertsNav(other).textContent(), poll).toBe('Alerts1 (1 open)');
    await expect.poll(() => egressRow(other).textContent(), poll).toMatch(/^open/);
    const acknowledge = egressRow().getByRole('button', { name: /^Acknowledge: Egress failing/ });
    await acknowledge.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => egressRow().textContent(), poll).toMatch(/acknowledged/);
    await expect.poll(() => alertsNav().textContent(), poll).toBe('Alerts');
    expect(
      await egressRow()
        .getByRole('button', { name: /^Acknowledge/ })
        .count(),
    ).toBe(0);
    await noViolations('Alerts, acknowledged');
    // The other window was not touched: the event took the alert out of its count and its row's button away.
    await expect.poll(() => alertsNav(other).textContent(), poll).toBe('Alerts');
    await expect.poll(() => egressRow(other).textContent(), poll).toMatch(/^acknowledged/);
    expect(
      await egressRow(other)
        .getByRole('button', { name: /^Acknowledge/ })
        .count(),
    ).toBe(0);
    expect(problems).toEqual([]);
  });
});
