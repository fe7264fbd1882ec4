/**
 * Issue 23 end to end, in the browser against the simulated demo cluster: a
 * proxy's Notes and tags edited in its drawer (the marks in the VM's
 * description byte for byte as they were, the tags as Proxmox keeps them),
 * the table filtered by a tag, and the drawer's Proxmox task history listing
 * a task another user started, with its log. The drawer passes axe and stays
 * inside the window at 1024 and 1280 px, light and dark.
 */
import { beforeAll, expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';
import { pve, waitTask } from '../integration/simulator/raw';

const poll = { timeout: 30_000 };
const proxy = 'proxy-a7k2m9x4q1w8e5r3t6'; // 150001 on pv1-1

const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 } };

describeE2e('notes, tags and the Proxmox task history in the proxy drawer', setup, ({ page, demo }) => {
  const simVm = () => [...demo.sim.state.vms.values()].find((v) => v.config.name === proxy && !v.template)!;
  const drawer = () => page.getByRole('complementary', { name: `Details of ${proxy}` });
  const notes = () => drawer().getByRole('region', { name: 'Notes and tags' });
  const history = () => drawer().getByRole('region', { name: 'Proxmox task history' });
  let marksBefore = '';

  beforeAll(async () => {
    marksBefore = String(simVm().config.description);
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.getByRole('button', { name: `Details of ${proxy}` }).click();
    await notes().getByRole('button', { name: 'Edit notes and tags' }).waitFor({ timeout: poll.timeout });
  });

  it('edits the notes and tags: Proxmox keeps the marks byte for byte, the notes below them and the tags sorted', async () => {
    await notes().getByRole('button', { name: 'Edit notes and tags' }).click();
    await notes().getByLabel('Notes').fill('Exit for the lab VLAN.\nAsk Kim before deleting.');
    await notes().getByLabel('Tags').fill('Lab eu-west!');
    expect(await notes().getByLabel('Tags').getAttribute('aria-invalid')).toBe('true');
    expect(await notes().getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await notes().getByLabel('Tags').fill('Lab, eu-west');
    await notes().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => notes().getByLabel('Notes').count(), poll).toBe(0);
    const description = String(simVm().config.description);
    expect(description).toBe(`${marksBefore}\nExit for the lab VLAN.\nAsk Kim before deleting.`);
    expect(simVm().config.tags).toBe('eu-west;lab;proxy_operator');
    expect(await notes().getByRole('list', { name: 'Tags' }).textContent()).toBe('proxy_operatoreu-westlab');
    expect(await notes().textContent()).toContain('Ask Kim before deleting.');
  });

  it('filters the table by a tag once the inventory lists it', async () => {
    const tag = page.getByRole('combobox', { name: 'Tag' });
    await expect.poll(async () => (await tag.locator('option').allTextContents()).includes('lab'), poll).toBe(true);
    await tag.selectOption('lab');
    await expect.poll(() => page.getByLabel('Rows shown').textContent(), poll).toMatch(/^1 of \d+ VMs$/);
    await tag.selectOption('');
  });

  it("lists a task another user started in Proxmox, with its log", async () => {
    // Someone reboots the VM from the Proxmox UI (the simulator's admin token, not the app's).
    const upid = (await pve(demo.sim, 'POST', '/nodes/pv1-1/qemu/150001/status/reboot', { form: {} })).data as string;
    await waitTask(demo.sim, upid);
    // Reopen the drawer: the history is read when it opens.
    await drawer().getByRole('button', { name: 'Close details' }).click();
    await page.getByRole('button', { name: `Details of ${proxy}` }).click();
    const row = history().getByRole('listitem').filter({ hasText: 'qmreboot' });
    await expect.poll(() => row.count(), poll).toBeGreaterThan(0);
    expect(await row.first().textContent()).toContain(demo.sim.tokens.admin!.tokenId);
    await row.first().getByRole('button', { name: /Show the log/ }).click();
    await expect.poll(() => history().getByLabel(/Log of qmreboot/).count(), poll).toBe(1);
    expect((await history().getByLabel(/Log of qmreboot/).textContent())?.length).toBeGreaterThan(0);
  });

  it('passes axe and stays inside the window at 1024 and 1280 px, light and dark', async () => {
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: width === 1024 ? 700 : 800 });
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        const v = await axeViolations(page, 'aside.drawer');
        expect(v, formatViolations(`drawer ${width} ${theme}`, v)).toEqual([]);
        for (const region of [notes(), history()]) {
          await region.scrollIntoViewIfNeeded();
          const box = await region.boundingBox();
          expect(box && box.x >= 0 && box.x + box.width <= width + 0.5, `${width} ${theme}: ${JSON.stringify(box)}`).toBe(true);
          const spill = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
          expect(spill, `${width} ${theme}: sideways overflow`).toBeLessThanOrEqual(0);
        }
        await notes().scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`drawer-notes-${width}-${theme}.png`) });
        await history().scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`drawer-task-history-${width}-${theme}.png`) });
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  });
});
