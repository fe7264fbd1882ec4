/**
 * The Proxies grid's layout and keyboard, end to end against the simulated
 * demo cluster in Chromium:
 * - at 1280×800 and 1024×700, light and dark: nothing scrolls sideways, every
 *   cell cut short carries its whole text as its tooltip, every badge is
 *   whole inside its cell, the drawer sits beside the grid without covering
 *   the selected row and shows the address and Test without scrolling, and
 *   axe finds nothing wrong with the grid (screenshots land in
 *   test-results/screenshots/proxies-<width>-<theme>.png); on a narrow
 *   window the drawer is a full panel instead;
 * - keyboard only: the skip link is the first Tab stop, `?` lists the
 *   shortcuts, and two proxies are selected with the arrows and Space,
 *   deleted with Delete and confirmed with Enter.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const first = 'proxy-a7k2m9x4q1w8e5r3t6';
const second = 'proxy-b3n8v5c2x7z4l9k1j6';

/** What the page says about its own layout: sideways overflow, cut cells without their tooltip, cut or spilling badges. */
function layoutFacts(page: Page) {
  return page.evaluate(() => {
    const overflow: string[] = [];
    for (const [name, el] of [
      ['document', document.documentElement],
      ['main', document.querySelector('main')],
      ['grid', document.querySelector('[role="grid"][aria-label="Proxies"]')],
      ['grid body', document.querySelector('.proxy-table-scroll')],
      ['grid head', document.querySelector('.proxy-table-head')],
    ] as const) {
      if (el && el.scrollWidth > el.clientWidth) overflow.push(`${name}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    const grid = document.querySelector('[role="grid"][aria-label="Proxies"]')!;
    const texts = [...grid.querySelectorAll<HTMLElement>('.cell-text, .name-text, [role="columnheader"] .sort-button')];
    const cut = texts.filter((el) => el.scrollWidth > el.clientWidth);
    const cutWithoutTooltip = cut
      .filter((el) => el.title !== el.textContent)
      .map((el) => `${el.textContent} (title ${el.title || 'none'})`);
    const badges = [...grid.querySelectorAll<HTMLElement>('[role="row"] .state-badge')];
    const badBadges = badges
      .filter((b) => {
        const r = b.getBoundingClientRect();
        const cell = b.closest('[role="gridcell"]')!.getBoundingClientRect();
        return b.scrollWidth > b.clientWidth || r.right > cell.right + 0.5 || r.left < cell.left - 0.5;
      })
      .map((b) => b.textContent);
    return { overflow, texts: texts.length, cut: cut.length, cutWithoutTooltip, badges: badges.length, badBadges };
  });
}

const setup: E2eOptions = { host: demoHost, page: false };

describeE2e('the proxies grid: layout at two window sizes, and the keyboard', setup, ({ host: t, newPage }) => {
  async function openProxies(width: number, height: number): Promise<Page> {
    const page = await newPage({ width, height });
    await page.goto(t.host.url);
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: `Details of ${first}` }).count(), poll).toBe(1);
    return page;
  }

  for (const [width, height] of [
    [1280, 800],
    [1024, 700],
  ] as const)
    for (const theme of ['light', 'dark'] as const)
      it(`at ${width}×${height} (${theme}): no sideways scroll, cut text has its tooltip, badges whole, the drawer beside the selection`, async () => {
        const page = await openProxies(width, height);
        await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of ${name}` }) });
        await expect.poll(() => row('proxy-lookalike-not-ours').textContent(), poll).toContain('foreign');

        const closed = await layoutFacts(page);
        expect(closed.overflow).toEqual([]);
        expect(closed.cutWithoutTooltip).toEqual([]);
        expect(closed.badBadges).toEqual([]);
        expect(closed.badges).toBeGreaterThan(0);
        // The Name, State and Address columns stay at any of these sizes, and Last check (issue 23).
        const grid = page.getByRole('grid', { name: 'Proxies' });
        for (const header of ['Name', 'State', 'Address', 'Last check']) expect(await grid.getByRole('columnheader', { name: header }).count()).toBe(1);

        await page.getByRole('checkbox', { name: `Select ${first}` }).check();
        await page.getByRole('button', { name: `Details of ${first}` }).click();
        const drawer = page.getByRole('complementary', { name: `Details of ${first}` });
        await expect.poll(() => drawer.count(), poll).toBe(1);
        const open = await layoutFacts(page);
        // Beside the drawer the grid keeps at least the name and the state (the drawer's snapshot table has its own Name).
        for (const header of ['Name', 'State']) expect(await grid.getByRole('columnheader', { name: header }).count()).toBe(1);
        expect(open.overflow).toEqual([]);
        expect(open.cutWithoutTooltip).toEqual([]);
        expect(open.badBadges).toEqual([]);

        // The drawer does not cover the selected row: the row's name and checkbox stay in sight, left of the drawer.
        const drawerBox = (await drawer.boundingBox())!;
        const rowBox = (await row(first).boundingBox())!;
        const nameBox = (await row(first).locator('.name-text').boundingBox())!;
        expect(await row(first).getAttribute('aria-selected')).toBe('true');
        expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(drawerBox.x + 0.5);
        expect(nameBox.width).toBeGreaterThan(40);
        // The address to copy and Test sit at the top of the drawer, above the fold.
        const test = (await drawer.getByRole('button', { name: 'Test' }).boundingBox())!;
        const address = (await drawer.getByRole('button', { name: 'Copy proxy address' }).boundingBox())!;
        expect(test.y + test.height).toBeLessThanOrEqual(height);
        expect(address.y + address.height).toBeLessThanOrEqual(height);

        expect(await axeViolations(page, '.proxies-layout')).toEqual([]);
        await page.screenshot({ path: screenshotPath(`proxies-${width}-${theme}.png`) });
        await page.close();
      });

  it('on a narrow window (860×700) the drawer is a full panel instead of covering the grid, and Escape brings the grid back', async () => {
    const page = await openProxies(860, 700);
    expect((await layoutFacts(page)).overflow).toEqual([]);
    await page.getByRole('button', { name: `Details of ${first}` }).click();
    const drawer = page.getByRole('complementary', { name: `Details of ${first}` });
    await expect.poll(() => drawer.count(), poll).toBe(1);
    expect(await page.getByRole('grid', { name: 'Proxies' }).isVisible()).toBe(false);
    const box = (await drawer.boundingBox())!;
    expect(box.width).toBeGreaterThan(500);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('grid', { name: 'Proxies' }).isVisible()).toBe(true);
    await page.close();
  });

  it('keyboard only: skip link, the shortcut list, then select two with the arrows and Space, Delete, Enter', async () => {
    const page = await newPage({ width: 1280, height: 800 });
    await page.goto(t.host.url);
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    // The first Tab stop of the page is the skip link, shown while focused; Enter puts focus in the main content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    const skipBox = (await skip.boundingBox())!;
    expect(skipBox.y).toBeGreaterThanOrEqual(0);
    expect(skipBox.x).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    await page.keyboard.press('Control+4');
    await expect.poll(() => page.getByRole('button', { name: `Details of ${first}` }).count(), poll).toBe(1);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const does of [
      'Go to Proxies',
      'Create a proxy',
      'Select or unselect the proxy',
      'Delete the selected proxies',
      'Open its details',
    ])
      expect(await help.getByText(does).count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    expect(await help.count()).toBe(0);

    // Tab from the main content to the grid's one Tab stop: its first row.
    const focusedRow = () =>
      page.evaluate(() => document.activeElement?.closest('[role="row"]')?.querySelector('.name-text')?.textContent ?? null);
    for (let i = 0; i < 40 && (await page.evaluate(() => document.activeElement?.getAttribute('role'))) !== 'row'; i++)
      await page.keyboard.press('Tab');
    expect(await focusedRow()).toBe(first);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await focusedRow()).toBe(first);
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    expect(await focusedRow()).toBe(second);
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByLabel('Rows shown').textContent()).toContain('2 selected');

    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete 2 proxies?' });
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByText(first).count()).toBe(1);
    expect(await dialog.getByText(second).count()).toBe(1);
    // The demo's proxies are operator-made: focus starts on the acknowledgement (issue 16); Space ticks it, the
    // Delete button is two Tabs on (past Cancel).
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('Started 2 delete tasks').count(), poll).toBe(1);
    const row = (name: string) => page.getByRole('button', { name: `Details of ${name}` });
    await expect.poll(async () => (await row(first).count()) + (await row(second).count()), poll).toBe(0);
    await page.close();
  });
});
