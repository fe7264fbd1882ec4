/**
 * Issue 23 item 10, end to end: with a second cluster the Proxies grid keeps the Cluster column at 1280×800 and
 * 1024×700, the drawer open too, so the same proxy name on two clusters is told apart; and Last check stays while
 * the drawer is closed. The second cluster is a simulator holding a proxy named like one of the demo's (stopped: no
 * address, so nothing checks it), saved as a profile through main's own channel.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { proxyVm, startSimulator, type Simulator } from '../../main/simulator';
import { simProfile } from '../integration/services/profiles/helpers';
import { screenshotPath } from '../support/screenshots';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const twin = 'proxy-a7k2m9x4q1w8e5r3t6';
let sim: Simulator;

const setup: E2eOptions = {
  host: demoHost,
  page: false,
  before: async () => {
    sim = await startSimulator({ dataset: 'minimal', timeScale: 0.01 });
    sim.state.addVm('pv1-1', proxyVm(150_001, twin, '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f', 'stopped'));
  },
  after: async () => sim?.close(),
};

describeE2e('the proxies grid with two clusters', setup, ({ host: t, newPage }) => {
  it('connects the second cluster', async () => {
    const token = sim.tokens.admin!;
    const ctx = { signal: new AbortController().signal, transport: 'test' };
    const saved = await t.app.router.dispatch(
      'profiles.save',
      {
        profile: simProfile(sim, token.tokenId, { name: 'Lab two', token: { secretStorage: 'plaintext', tokenId: token.tokenId } }),
        secret: token.secret,
      },
      ctx,
    );
    expect(saved).toMatchObject({ ok: true });
  });

  const headers = async (page: Page) => (await page.getByRole('columnheader').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());

  for (const [width, height] of [
    [1280, 800],
    [1024, 700],
  ] as const)
    for (const theme of ['light', 'dark'] as const)
      it(`at ${width}×${height} (${theme}): Cluster and Last check stay; beside the drawer the Cluster column stays`, async () => {
        const page = await newPage({ width, height });
        await page.goto(t.host.url);
        await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
        await page.getByRole('button', { name: 'Proxies', exact: true }).click();
        await expect.poll(() => page.getByRole('button', { name: `Details of ${twin}` }).count(), poll).toBe(2);
        expect(await headers(page)).toEqual(expect.arrayContaining(['Name', 'State', 'Cluster', 'Last check']));
        // The two proxies of one name, each with its cluster in its row.
        const twins = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of ${twin}` }) });
        expect(
          (await twins.allTextContents()).map((r) => (r.includes('Lab two') ? 'Lab two' : r.includes('Demo') ? 'Demo' : '?')).sort(),
        ).toEqual(['Demo', 'Lab two']);
        // The names themselves stay readable beside the Cluster column (a squeezed name cell drops its owner badge).
        const nameWidths = () => page.locator('.name-text').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
        expect(Math.min(...(await nameWidths()))).toBeGreaterThan(40);
        await page.screenshot({ path: screenshotPath(`proxies-two-clusters-${width}-${theme}.png`) });

        await twins
          .filter({ hasText: 'Lab two' })
          .getByRole('button', { name: `Details of ${twin}` })
          .click();
        await expect.poll(() => page.getByRole('complementary', { name: `Details of ${twin}` }).count(), poll).toBe(1);
        expect(await headers(page)).toEqual(expect.arrayContaining(['Name', 'State', 'Cluster']));
        const cluster = twins.filter({ hasText: 'Lab two' }).locator('.cell-text').filter({ hasText: 'Lab two' });
        expect(await cluster.count()).toBe(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
        expect(Math.min(...(await nameWidths()))).toBeGreaterThan(40);
        await page.screenshot({ path: screenshotPath(`proxies-two-clusters-${width}-${theme}-drawer.png`) });
        await page.close();
      });
});
