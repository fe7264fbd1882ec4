/**
 * The Overview in Chromium against the simulated demo cluster: first run
 * opens on the demo, labelled as such; every node row and the proxy counts
 * fit above the fold at 1280×800 and 1024×700 in both themes, with no
 * sideways scroll; a node going down turns its row red with the reason and
 * the fix, and coming back turns it green again; counts and nodes are links.
 * The page loads with no console error, no CSP violation and no failed
 * request (favicon included).
 */
import { beforeAll, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const setup: E2eOptions = {
  host: {
    demoTimeScale: 0.02,
    monitoring: { health: { intervalMs: 300, maxBackoffMs: 600 }, inventory: { visibleIntervalMs: 500, maxBackoffMs: 1000 } },
  },
  viewport: { width: 1280, height: 800 },
  goto: false,
};

describeE2e('Overview: node health on the demo cluster', setup, ({ host: t, page, demo, problems }) => {
  const card = (node: string) => page.getByRole('article', { name: `Node ${node}` });
  const nodes = ['pv1-1', 'pv1-2', 'pv1-3'];
  const measured: string[] = [];

  /** Every node row and the proxy counts inside the viewport at scroll 0, and no sideways scroll. */
  async function checkFold(width: number, height: number, theme: 'light' | 'dark', shot: string) {
    await page.setViewportSize({ width, height });
    await page.getByLabel('Theme').selectOption(theme);
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe(theme);
    await page.evaluate(() => document.querySelector('.content')?.scrollTo(0, 0));
    // The sparklines are drawn (three per node) once uPlot has loaded.
    await expect.poll(() => page.locator('.node-row canvas').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(9);
    const rows: string[] = [];
    for (const n of nodes) {
      const box = (await card(n).boundingBox())!;
      expect(box, `${n} at ${width}×${height}`).not.toBeNull();
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height, `${n} bottom at ${width}×${height}`).toBeLessThanOrEqual(height);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      rows.push(`${n} ${Math.round(box.height)} px (bottom ${Math.round(box.y + box.height)})`);
    }
    const counts = (await page.getByRole('list', { name: /by state$/ }).boundingBox())!;
    expect(counts.y + counts.height).toBeLessThanOrEqual(height);
    const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.inner);
    const content = await page.evaluate(() => {
      const c = document.querySelector('.content')!;
      return { scroll: c.scrollWidth, client: c.clientWidth };
    });
    expect(content.scroll).toBeLessThanOrEqual(content.client);
    measured.push(`${width}×${height} ${theme}: ${rows.join(', ')}; counts bottom ${Math.round(counts.y + counts.height)}`);
    await page.screenshot({ path: screenshotPath(shot) });
  }
  const cardClass = (node: string) => card(node).getAttribute('class');

  beforeAll(async () => {
    // Beyond the set-up's watch (uncaught errors, CSP): console errors, failed requests and error answers are problems here.
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(t.host.url);
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
    expect(healthy).toMatch(/PVE \d\S*/);
    expect(healthy).toMatch(/\d+ of \d+ configured/);
    expect(await page.getByRole('meter', { name: 'Memory of pv1-1' }).getAttribute('aria-valuenow')).not.toBeNull();
  });

  it('counts the proxies by state', async () => {
    const counts = page.getByRole('list', { name: /by state$/ });
    await expect.poll(() => counts.textContent(), { timeout: 15_000 }).toMatch(/[1-9]\d*\s*running/);
  });

  it('turns a node red when it goes down, and green when it is back', async () => {
    await page.getByRole('button', { name: /^Check now / }).click();
    demo.sim.faults.nodeUp('pv1-3');
    await expect.poll(() => cardClass('pv1-3'), { timeout: 15_000 }).toContain('level-ok');
    await expect.poll(() => page.getByRole('status', { name: /^Health of / }).textContent()).toContain('Healthy: all 3 nodes ready');

    demo.sim.faults.nodeDown('pv1-2');
    await expect.poll(() => cardClass('pv1-2'), { timeout: 15_000 }).toContain('level-bad');
    expect(await card('pv1-2').textContent()).toContain('Unreachable');
    expect(await card('pv1-2').textContent()).toContain('What to do:');
    expect(await page.getByRole('img', { name: 'pv1-2: Unreachable' }).count()).toBe(1);
    demo.sim.faults.nodeUp('pv1-2');
    await expect.poll(() => cardClass('pv1-2'), { timeout: 15_000 }).toContain('level-ok');
    expect(await card('pv1-2').textContent()).not.toContain('What to do:');
    expect(await card('pv1-2').textContent()).toMatch(/Reason changes, last hour: [1-9]/);
  });

  it('fits every node and the proxy counts above the fold at 1280×800 and 1024×700, light and dark, with no sideways scroll', async () => {
    await expect.poll(() => page.getByRole('status', { name: /^Health of / }).textContent(), { timeout: 15_000 }).toContain('Healthy');
    await checkFold(1280, 800, 'light', 'overview-light.png');
    await checkFold(1280, 800, 'dark', 'overview-dark.png');
    await checkFold(1024, 700, 'light', 'overview-1024-light.png');
    await checkFold(1024, 700, 'dark', 'overview-1024-dark.png');
    console.log(`[e2e overview] ${measured.join('\n')}`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('links a count to the Proxies view filtered by cluster and state, and a node to its page in Nodes', async () => {
    const running = page.getByRole('button', { name: /^\d+ running in / });
    await running.click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Proxies');
    await expect.poll(() => page.getByLabel('State').inputValue()).toBe('running');
    await page.getByRole('button', { name: 'Overview' }).click();
    await card('pv1-1').getByRole('button', { name: 'pv1-1' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Nodes');
    await expect.poll(() => page.getByRole('main').textContent()).toContain('pv1-1');
    await page.getByRole('button', { name: 'Overview' }).click();
  });
});
