/**
 * Issue 23, item 1: no dialog is pushed beyond the viewport by what it
 * shows. The cluster is the CLI simulator's (`main/simulator/cli.ts`: the
 * demo data set) with its operator token, which lacks the builder's
 * privileges: the preflight then lists a `pveum` block whose one line is
 * thousands of pixels wide. The builder is opened at 1024×700 and 1280×800,
 * light and dark, and its box must lie inside the window, its commands
 * wrapped inside it (screenshots dialog-fit-<width>-<theme>.png); Create
 * proxy, the connect wizard and the shortcuts help, given long text, too.
 */
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { SEED_STORAGE, startSimulator, type Simulator } from '../../main/simulator';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const sizes = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
] as const;

let sim: Simulator;
const setup: E2eOptions = {
  before: async () => {
    sim = await startSimulator({ dataset: 'demo', timeScale: 0.01, agentDelayMs: 200 });
  },
  host: { demoTimeScale: 0.02, monitoring: { inventory: { visibleIntervalMs: 300 } } },
  viewport: sizes[0],
  after: async () => sim?.close(),
};

/** Where a box sticks out of the window, in words (empty when it fits). */
async function outside(page: Page, target: Locator): Promise<string[]> {
  const box = await target.boundingBox();
  const view = page.viewportSize();
  if (!box || !view) return ['no box'];
  const out: string[] = [];
  if (box.x < 0) out.push(`left edge at x ${box.x}`);
  if (box.y < 0) out.push(`top edge at y ${box.y}`);
  if (box.x + box.width > view.width + 0.5) out.push(`right edge at x ${box.x + box.width} of ${view.width}`);
  if (box.y + box.height > view.height + 0.5) out.push(`bottom edge at y ${box.y + box.height} of ${view.height}`);
  return out;
}

describeE2e('dialogs stay inside the window whatever they show', setup, ({ page, host }) => {
  const builder = () => page.getByRole('dialog', { name: /^Build a template on / });

  it('opens the builder on the CLI cluster with the operator token: the pveum block is there', async () => {
    const token = sim.tokens.operator!;
    await host.app.profiles.save({
      profile: {
        name: 'cli-sim',
        url: sim.url,
        tls: { mode: 'pin', fingerprint: sim.fingerprint },
        token: { secretStorage: 'session', tokenId: token.tokenId },
        nodes: [...sim.state.nodes.keys()],
        isoStorage: SEED_STORAGE,
        bridge: 'vmbr0',
        templates: {},
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
      },
      secret: token.secret,
    });
    await page.getByRole('button', { name: 'Templates' }).click();
    await page.getByRole('toolbar', { name: 'Template actions' }).getByLabel('Cluster').selectOption({ label: 'cli-sim' });
    await page.getByRole('button', { name: 'Build a template' }).click();
    await expect.poll(() => builder().getByRole('region', { name: 'pveum commands' }).count(), poll).toBe(1);
    const pre = builder().getByRole('region', { name: 'pveum commands' });
    expect((await pre.textContent())?.length ?? 0).toBeGreaterThan(200);
  });

  for (const size of sizes)
    it(`keeps the builder inside ${size.width}×${size.height}, light and dark, the commands wrapped inside it`, async () => {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => outside(page, builder()), { timeout: 5000 }).toEqual([]);
        const dialog = (await builder().boundingBox())!;
        const pre = (await builder().getByRole('region', { name: 'pveum commands' }).boundingBox())!;
        expect(pre.x).toBeGreaterThanOrEqual(dialog.x);
        expect(pre.x + pre.width).toBeLessThanOrEqual(dialog.x + dialog.width);
        // Wrapped, not scrolled sideways: every command can be read where it is.
        const sideways = await builder()
          .getByRole('region', { name: 'pveum commands' })
          .evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(sideways).toBeLessThanOrEqual(1);
        await builder().getByRole('region', { name: 'pveum commands' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`dialog-fit-${size.width}-${theme}.png`) });
      }
    });

  it('keeps the other dialogs inside 1024×700 too: Create proxy with a 2,000-character user-data line, Connect a cluster, Keyboard shortcuts', async () => {
    await page.setViewportSize(sizes[0]);
    await builder().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => builder().count(), poll).toBe(0);
    await page.keyboard.press('Control+n');
    const create = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => create.count(), poll).toBe(1);
    await create.getByLabel('Cloud-init user-data').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(`\n# ${'x'.repeat(2000)}`);
    await expect.poll(() => outside(page, create), { timeout: 5000 }).toEqual([]);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => create.count(), poll).toBe(0);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Connect a cluster' }).click();
    const wizard = page.getByRole('dialog', { name: 'Connect a cluster' });
    await wizard.getByLabel('Cluster URL').fill(`https://pve.example.invalid:8006/${'a'.repeat(300)}`);
    await expect.poll(() => outside(page, wizard), { timeout: 5000 }).toEqual([]);
    await page.keyboard.press('Escape');
    const discard = page.getByRole('button', { name: 'Discard' });
    if (await discard.count()) await discard.click();
    await expect.poll(() => wizard.count(), poll).toBe(0);

    await page.locator('body').press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect.poll(() => help.count(), poll).toBe(1);
    expect(await outside(page, help)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page.getByRole('toolbar', { name: 'Template actions' }).getByLabel('Cluster').selectOption({ label: 'cli-sim' });
    await page.getByRole('button', { name: 'Build a template' }).click();
    await expect.poll(() => builder().getByRole('region', { name: 'pveum commands' }).count(), poll).toBe(1);
  });

  it('keeps the keyboard inside the builder: Tab reaches the commands and their copy button, Escape closes', async () => {
    const pre = builder().getByRole('region', { name: 'pveum commands' });
    await pre.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Copy pveum commands');
    await page.keyboard.press('Escape');
    await expect.poll(() => builder().count(), poll).toBe(0);
  });
});
