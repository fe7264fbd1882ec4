/**
 * The Overview in Chromium against the simulated demo cluster: first run
 * opens on the demo, labelled as such; a node going down turns its card red
 * with the reason and the fix, and coming back turns it green again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoCluster } from '../../main/services/demo/demo-cluster';
import { chromiumMissingReason, launchChromium } from '../support/browser';
import { screenshotPath } from '../support/screenshots';
import { rendererMissingReason, startTestHost, type TestHost } from '../support/web-host';

const skipReason = chromiumMissingReason() ?? rendererMissingReason();
if (skipReason) console.log(`[e2e overview] skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('Overview: node health on the demo cluster', () => {
  let t: TestHost;
  let demo: DemoCluster;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const card = (node: string) => page.getByRole('article', { name: `Node ${node}` });
  const cardClass = (node: string) => card(node).getAttribute('class');

  beforeAll(async () => {
    t = await startTestHost({
      demoTimeScale: 0.02,
      monitoring: { health: { intervalMs: 300, maxBackoffMs: 600 }, inventory: { visibleIntervalMs: 500, maxBackoffMs: 1000 } },
    });
    demo = await t.demo!;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      // A failed load is reported below with its URL.
      if ((m.type() === 'error' && !m.text().startsWith('Failed to load resource')) || /Content Security Policy/i.test(m.text()))
        problems.push(m.text());
    });
    page.on('response', (r) => {
      // Chromium asks for a favicon the app does not ship.
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(t.host.url);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('opens on the simulated demo cluster, says so, and offers to connect a real one', async () => {
    await expect.poll(() => page.getByRole('note', { name: 'Demo mode' }).textContent()).toContain('simulated demo cluster');
    expect(await page.getByRole('button', { name: 'Connect a real cluster' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { level: 2, name: /Demo cluster/ }).textContent()).toContain('Simulated');
  });

  it('shows the down node of the demo in red with its reason and the fix, and the cluster as degraded', async () => {
    await expect.poll(() => cardClass('pv1-3'), { timeout: 15_000 }).toContain('level-bad');
    expect(await card('pv1-3').textContent()).toContain('Unreachable');
    expect(await card('pv1-3').textContent()).toContain('What to do:');
    await expect
      .poll(() => page.getByRole('status', { name: /^Health of / }).textContent())
      .toMatch(/Degraded: 1 of 3 nodes need attention/);
    await expect.poll(() => cardClass('pv1-1'), { timeout: 15_000 }).toContain('level-ok');
    const healthy = (await card('pv1-1').textContent()) ?? '';
    expect(healthy).toContain('Healthy');
    expect(healthy).not.toContain('What to do:');
    expect(healthy).toMatch(/PVE version\s*\S+/);
    expect(healthy).toMatch(/Templates found\s*\d+ of \d+ configured/);
    expect(await page.getByRole('meter', { name: 'Memory of pv1-1' }).getAttribute('aria-valuenow')).not.toBeNull();
  });

  it('counts the proxies by state', async () => {
    const counts = page.getByRole('list', { name: /by state$/ });
    await expect.poll(() => counts.textContent(), { timeout: 15_000 }).toMatch(/[1-9]\d*\s*running/);
  });

  it('turns a node red when it goes down, and green when it is back', async () => {
    await page.getByRole('button', { name: /^Recheck / }).click();
    demo.sim.faults.nodeUp('pv1-3');
    await expect.poll(() => cardClass('pv1-3'), { timeout: 15_000 }).toContain('level-ok');
    await expect.poll(() => page.getByRole('status', { name: /^Health of / }).textContent()).toContain('Healthy: all 3 nodes ready');

    demo.sim.faults.nodeDown('pv1-2');
    await expect.poll(() => cardClass('pv1-2'), { timeout: 15_000 }).toContain('level-bad');
    expect(await card('pv1-2').textContent()).toContain('Unreachable');
    expect(await card('pv1-2').textContent()).toContain('What to do:');
    expect(await page.getByRole('img', { name: 'pv1-2: Unreachable' }).count()).toBe(1);
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.getByLabel('Theme').selectOption('light');
    await page.screenshot({ path: screenshotPath('overview-light.png') });
    await page.getByLabel('Theme').selectOption('dark');
    await page.screenshot({ path: screenshotPath('overview-dark.png') });
    await page.setViewportSize({ width: 1280, height: 860 });

    demo.sim.faults.nodeUp('pv1-2');
    await expect.poll(() => cardClass('pv1-2'), { timeout: 15_000 }).toContain('level-ok');
    expect(await card('pv1-2').textContent()).not.toContain('What to do:');
    expect(await card('pv1-2').textContent()).toMatch(/Reason changes, last hour: [1-9]/);
  });

  it('ran without page errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
