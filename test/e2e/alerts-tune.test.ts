/**
 * Issue 23, items 6 and 7 and "Alerts you can tune", in the browser against
 * the demo, on a fresh data folder. Two alerts are raised as a newcomer meets
 * them (the demo's node pv1-3 stays down; its failing proxy answers 502 twice)
 * while a webhook target on a closed loopback port refuses every post.
 *
 * - Notices: both stack into the status bar (the latest on one line, a count
 *   that opens them all); the Proxies table keeps its height; their times
 *   are the Alerts view's own local words, never raw ISO; acknowledging an
 *   alert takes its notice away.
 * - The Alerts table at 1280×800 and 1024×700, light and dark: nothing
 *   outside the viewport, no element over another, no word broken mid-word;
 *   the target is a link (a proxy opens its drawer, a node its page).
 * - Tuning: a filter; a snooze from the keyboard (the alert acknowledged, the
 *   target listed as quiet until a time, the snooze ended again); a hold-down
 *   and a per-proxy override saved to alert-tuning.json in the data folder;
 *   the webhook's failed deliveries shown with what to do.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_BROKEN_VMID } from '../../main/services/demo/demo-proxies';
import type { InventorySnapshot } from '../../shared/channels/inventory';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const ctx = { signal: new AbortController().signal, transport: 'test' };
const RAW_ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** A loopback port nothing listens on (bound, then closed): every post there is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * What a person would see wrong in `selector`: an element past the viewport's edges, an element drawn over a
 * sibling's box (a badge over the rule's words), a word broken across two lines.
 */
function layoutProblems(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const problems: string[] = [];
    const root = document.querySelector(sel);
    if (!root) return [`${sel} not found`];
    const vw = document.documentElement.clientWidth;
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const drawn = [...root.querySelectorAll<HTMLElement>('*')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    });
    for (const el of drawn) {
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.right > vw + 0.5)
        problems.push(`${name(el)} outside the viewport (${Math.round(r.left)}–${Math.round(r.right)} of ${vw})`);
    }
    // Siblings in a cell must not overlap (each cell's own children, and the cells of a row).
    const cells = [...root.querySelectorAll('td, th')];
    for (const parent of [...cells, ...root.querySelectorAll('tr')]) {
      const kids = [...parent.children].filter((k) => drawn.includes(k as HTMLElement));
      for (let i = 0; i < kids.length; i++)
        for (let j = i + 1; j < kids.length; j++) {
          const a = kids[i]!.getBoundingClientRect();
          const b = kids[j]!.getBoundingClientRect();
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x > 1 && y > 1) problems.push(`${name(kids[i]!)} overlaps ${name(kids[j]!)} by ${Math.round(x)} px`);
        }
      // A cell's content that spills out of the cell.
      if (parent.tagName !== 'TR') {
        const cell = parent.getBoundingClientRect();
        for (const k of kids) {
          const r = k.getBoundingClientRect();
          if (r.right > cell.right + 1 || r.left < cell.left - 1) problems.push(`${name(k)} spills out of its cell`);
        }
      }
    }
    // A word drawn on two lines: its range has two boxes. A hyphen is a place to break, as in print: 'proxy-|a7k2m'.
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/[^\s-]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const boxes = [...range.getClientRects()].filter((b) => b.width > 0);
        if (new Set(boxes.map((b) => Math.round(b.top))).size > 1) problems.push(`"${m[0]}" broken across lines`);
      }
    }
    return problems;
  }, selector);
}

const setup: E2eOptions = {
  // The demo's health checks every 0.5 s, so the node's alert comes at once when its wait is 0.
  host: { demoTimeScale: 0.02, monitoring: { inventory: { visibleIntervalMs: 300 }, health: { intervalMs: 500, maxBackoffMs: 1_000 } } },
  dataDir: 'alerts-tune',
  viewport: { width: 1280, height: 800 },
};

describeE2e('alerts you can live with and tune', setup, (e) => {
  const { host: t, page, problems } = e;
  const nav = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: new RegExp(`^${name}`) });
  const statusBar = () => page.getByRole('contentinfo');
  const noticeCount = () => statusBar().getByRole('button', { name: /^\d+ notices?$/ });
  const allNotices = () => page.getByRole('list', { name: 'All notifications' });
  const table = () => page.getByRole('table', { name: 'Alerts' });
  const row = (text: string) => table().getByRole('row').filter({ hasText: text });
  let proxiesTableHeight = 0;

  async function dispatch(channel: string, input: unknown) {
    const answer = await t.app.router.dispatch(channel as never, input as never, ctx);
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    return answer.value;
  }

  beforeAll(async () => {
    await dispatch('alerts.saveTarget', {
      name: 'lab hook',
      format: 'generic',
      url: `http://127.0.0.1:${await closedPort()}/hook`,
      enabled: true,
    });
    await vi.waitFor(
      async () => {
        const snap = (await dispatch('inventory.snapshot', { clusterId: 'demo' })) as InventorySnapshot;
        expect(snap.clusters[0]?.vms.find((v) => v.vmid === DEMO_BROKEN_VMID)?.address).toBeTruthy();
      },
      { timeout: 30_000, interval: 100 },
    );
    await nav('Proxies').click();
    await vi.waitFor(async () => expect(await page.getByRole('grid', { name: 'Proxies' }).getByRole('row').count()).toBeGreaterThan(3), {
      timeout: 30_000,
      interval: 100,
    });
    proxiesTableHeight = (await page.getByRole('grid', { name: 'Proxies' }).boundingBox())!.height;
    // Now the two alerts: the node down (its wait set to 0) and the failing proxy's two failed checks.
    await dispatch('alerts.setRules', { rules: { nodeUnreachableSeconds: 0 } });
    for (let done = 0, tries = 0; done < 2 && tries < 10; tries++) {
      const answer = await t.app.router.dispatch(
        'proxies.test',
        { clusterId: 'demo', vmid: DEMO_BROKEN_VMID, protocol: 'http', port: 8888 },
        ctx,
      );
      if (answer.ok) done++;
    }
  });

  it('stacks the notices in the status bar: the latest on one line, a count that opens them; the table keeps its height', async () => {
    await expect.poll(() => noticeCount().textContent(), poll).toBe('2 notices');
    const bar = (await statusBar().boundingBox())!;
    expect(bar.height).toBeLessThan(40);
    expect((await page.getByRole('grid', { name: 'Proxies' }).boundingBox())!.height).toBe(proxiesTableHeight);
    expect(await statusBar().textContent()).toMatch(/Alert: (Egress failing|Node unreachable)/);
    await noticeCount().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => allNotices().getByRole('listitem').count(), poll).toBe(2);
    const text = (await allNotices().textContent()) ?? '';
    expect(text).not.toMatch(RAW_ISO);
    expect(text).toMatch(/Alert: Egress failing/);
    expect(text).toMatch(/Alert: Node unreachable, node pv1-3/);
    const violations = await axeViolations(page);
    expect(violations, formatViolations('the open notices', violations)).toEqual([]);
    await page.screenshot({ path: screenshotPath('alert-notices-open-1280.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => allNotices().count(), poll).toBe(0);
    expect(await noticeCount().evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('shows a notice time in the words of the Alerts view', async () => {
    await nav('Alerts').click();
    await expect.poll(() => row('Egress failing').count(), poll).toBe(1);
    const raised = (await row('Egress failing').locator('.alert-time').first().textContent()) ?? '';
    expect(raised).not.toMatch(RAW_ISO);
    await noticeCount().click();
    expect(await allNotices().getByRole('listitem').filter({ hasText: 'Egress failing' }).textContent()).toContain(raised.trim());
    await page.keyboard.press('Escape');
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1024, height: 700 },
  ])
    for (const theme of ['light', 'dark'] as const)
      it(`fits the Alerts view at ${viewport.width}×${viewport.height} (${theme}): nothing outside, over another, or broken mid-word`, async () => {
        await page.setViewportSize(viewport);
        await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        await expect.poll(() => row('Node unreachable').count(), poll).toBe(1);
        await page.screenshot({ path: screenshotPath(`alerts-tune-${viewport.width}-${theme}.png`) });
        expect(await layoutProblems(page, 'main')).toEqual([]);
        expect(await layoutProblems(page, 'footer')).toEqual([]);
        // The status bar stays one line with the notices in it.
        expect((await statusBar().boundingBox())!.height).toBeLessThan(40);
        const violations = await axeViolations(page);
        expect(violations, formatViolations(`Alerts ${viewport.width} ${theme}`, violations)).toEqual([]);
        await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
      });

  it('filters the table by words, state and rule', async () => {
    const filter = page.getByRole('searchbox', { name: 'Filter alerts' });
    await filter.fill('pv1-3');
    await expect.poll(() => table().getByRole('row').count(), poll).toBe(2); // the header and the node's row
    expect(await row('Node unreachable').count()).toBe(1);
    await filter.fill('');
    await page.getByLabel('Rule', { exact: true }).selectOption({ label: 'Egress failing' });
    await expect.poll(() => row('Node unreachable').count(), poll).toBe(0);
    expect(await row('Egress failing').count()).toBe(1);
    await page.getByLabel('Rule', { exact: true }).selectOption({ label: 'Any rule' });
    await expect.poll(() => row('Node unreachable').count(), poll).toBe(1);
  });

  it('acknowledging an alert takes its notice away', async () => {
    await row('Egress failing')
      .getByRole('button', { name: /^Acknowledge: Egress failing/ })
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => noticeCount().textContent(), poll).toBe('1 notice');
    expect(await statusBar().textContent()).not.toMatch(/Egress failing/);
  });

  it('shows the webhook deliveries that failed, with what to do', async () => {
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
    await expect.poll(() => deliveries.textContent(), poll).toMatch(/lab hook.*failed/);
    expect(await deliveries.textContent()).not.toMatch(RAW_ISO);
  });

  it('snoozes a target from the keyboard: acknowledged, quiet until a time, and the snooze ended again', async () => {
    await row('Node unreachable')
      .getByRole('button', { name: /^Snooze or tune: .*pv1-3/ })
      .focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Snooze for').selectOption({ label: '1 hour' });
    await dialog.getByRole('button', { name: 'Snooze', exact: true }).click();
    await expect.poll(() => row('Node unreachable').textContent(), poll).toMatch(/^acknowledged/);
    await expect.poll(() => noticeCount().count(), poll).toBe(0);
    const quiet = page.getByRole('region', { name: 'Quiet targets' });
    await expect.poll(() => quiet.textContent(), poll).toMatch(/node pv1-3.*until/);
    expect(await quiet.textContent()).not.toMatch(RAW_ISO);
    const file = JSON.parse(readFileSync(join(e.dataDir, 'alert-tuning.json'), 'utf8'));
    expect(file.tuning.snoozes).toEqual([expect.objectContaining({ clusterId: 'demo', target: 'node:pv1-3' })]);
    await quiet.getByRole('button', { name: /^End the snooze of node pv1-3/ }).click();
    await expect.poll(() => quiet.textContent(), poll).toMatch(/Nothing is snoozed/);
  });

  it('saves a hold-down and a per-proxy override into the data folder', async () => {
    const holds = page.getByRole('region', { name: 'Hold-down' });
    await holds.getByLabel('Egress failing: only after (minutes)').fill('5');
    await holds.getByRole('button', { name: 'Save hold-downs' }).click();
    await expect.poll(() => holds.getByRole('status').textContent(), poll).toMatch(/Saved/);

    await row('Egress failing')
      .getByRole('button', { name: /^Snooze or tune: / })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Egress failing', { exact: true }).waitFor(poll);
    expect(await layoutProblems(page, '[role="dialog"]')).toEqual([]);
    await page.screenshot({ path: screenshotPath('alerts-tune-dialog-1024.png') });
    await dialog.getByLabel('Egress failing', { exact: true }).uncheck();
    await dialog.getByLabel('Only after (minutes)').fill('2');
    await dialog.getByRole('button', { name: 'Save override' }).click();
    await expect.poll(() => dialog.count(), poll).toBe(0);
    const overrides = page.getByRole('region', { name: 'Per-target overrides' });
    await expect.poll(() => overrides.textContent(), poll).toMatch(new RegExp(`\\(${DEMO_BROKEN_VMID}\\).*Egress failing off.*2 min`));
    const file = JSON.parse(readFileSync(join(e.dataDir, 'alert-tuning.json'), 'utf8'));
    expect(file.tuning.holdDownMinutes).toEqual({ 'egress-failing': 5 });
    expect(file.tuning.overrides).toEqual([
      expect.objectContaining({ clusterId: 'demo', target: `vm:${DEMO_BROKEN_VMID}`, disabled: ['egress-failing'], holdDownMinutes: 2 }),
    ]);
    await page.getByRole('region', { name: 'Hold-down' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('alerts-tuning-1024.png') });
  });

  it('links each target: a proxy opens its drawer, a node its page', async () => {
    await row('Node unreachable')
      .getByRole('button', { name: /^node pv1-3/ })
      .click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toMatch(/Nodes|pv1-3/);
    await expect.poll(() => page.getByRole('main').textContent(), poll).toContain('pv1-3');
    await nav('Alerts').click();
    await row('Egress failing')
      .getByRole('button', { name: new RegExp(`^proxy .*\\(${DEMO_BROKEN_VMID}\\)$`) })
      .click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Proxies');
    await expect
      .poll(
        () =>
          page
            .getByRole('complementary')
            .filter({ hasText: String(DEMO_BROKEN_VMID) })
            .count(),
        poll,
      )
      .toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
