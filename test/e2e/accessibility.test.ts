/**
 * Issue 13: axe-core (WCAG 2.0/2.1, A and AA) over every view and dialog, in
 * the light and the dark theme, in Chromium against the simulated demo
 * cluster and a second simulated cluster connected through the wizard. Any
 * violation fails the test, printed with its rule, impact, element and why.
 * Views: Overview, Nodes and a node (a healthy and an unreachable one),
 * Templates, Proxies with its drawer, Create proxy, the delete confirmation,
 * Tasks with a task's details and the task panel, Cleanup, Settings, the
 * shortcut help, each step of the connect wizard, and the template builder.
 * All at 1280×800, the main views again at 1024×700.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../main/simulator';
import { axeViolations, formatViolations, type AxeViolation } from '../support/axe';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const themes = ['light', 'dark'] as const;
const firstProxy = 'proxy-a7k2m9x4q1w8e5r3t6';

/** The second cluster, connected through the wizard: started before the host, closed after it. */
let sim: Simulator;
const setup: E2eOptions = {
  before: async () => {
    sim = await startSimulator({ dataset: 'minimal', timeScale: 0.01 });
  },
  host: { demoTimeScale: 0.02, monitoring: { health: { intervalMs: 500 }, inventory: { visibleIntervalMs: 500 } } },
  viewport: { width: 1280, height: 800 },
  after: async () => sim?.close(),
};

describeE2e('accessibility: no axe violation on any view or dialog, light and dark', setup, ({ page, demo }) => {
  /** Every place checked, with what axe found there; printed at the end. */
  const checked: { where: string; violations: AxeViolation[] }[] = [];

  const nav = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name, exact: true });
  const wizard = () => page.getByRole('dialog', { name: 'Connect a cluster' });

  /** Runs axe in both themes (the theme follows the system's, which the page emulates) and records what it finds. */
  async function scan(where: string): Promise<string[]> {
    const failures: string[] = [];
    const size = page.viewportSize();
    for (const theme of themes) {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      // Two frames: styles recomputed and painted before the contrast is measured.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const label = `${where} (${theme}, ${size?.width}×${size?.height})`;
      const violations = await axeViolations(page);
      checked.push({ where: label, violations });
      if (violations.length > 0) failures.push(formatViolations(label, violations));
    }
    return failures;
  }

  /** Scans each place in turn; returns what was found, printed. */
  async function scanAll(...places: (() => Promise<string>)[]): Promise<string[]> {
    const failures: string[] = [];
    for (const place of places) failures.push(...(await scan(await place())));
    return failures;
  }
  const expectNone = (failures: string[]) => expect(failures, failures.join('\n\n')).toEqual([]);
  /** Scans each place in turn and fails with all that was found. */
  const expectClean = async (...places: (() => Promise<string>)[]) => expectNone(await scanAll(...places));

  beforeAll(async () => {
    // The theme follows the system's: the checks flip it with emulated media.
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
  });

  // A test that failed with a dialog open leaves it open; the next one starts from the views.
  beforeEach(async () => {
    for (let i = 0; i < 5 && (await page.getByRole('dialog').count()) > 0; i++) await page.keyboard.press('Escape');
  });

  afterAll(() => {
    if (checked.length === 0) return;
    const bad = checked.filter((c) => c.violations.length > 0);
    console.log(`[e2e accessibility] ${checked.length} places checked, ${bad.length} with violations`);
    for (const c of bad) console.log(formatViolations(c.where, c.violations));
  });

  it('Overview, with a healthy and an unreachable node', async () => {
    await expect.poll(() => page.getByRole('article', { name: 'Node pv1-3' }).getAttribute('class'), poll).toContain('level-bad');
    await expect.poll(() => page.getByRole('article', { name: 'Node pv1-1' }).getAttribute('class'), poll).toContain('level-ok');
    await expect.poll(() => page.getByRole('list', { name: /by state$/ }).textContent(), poll).toMatch(/[1-9]\d*\s*running/);
    await expectClean(async () => 'Overview');
  });

  it('Nodes, a healthy node and an unreachable one', async () => {
    await nav('Nodes').click();
    await expect.poll(() => page.getByRole('table', { name: 'Nodes' }).getByRole('row').count(), poll).toBeGreaterThan(3);
    await expectClean(
      async () => 'Nodes',
      async () => {
        await page.getByRole('button', { name: 'pv1-1', exact: true }).click();
        await expect.poll(() => page.getByRole('table', { name: 'Storages of pv1-1' }).count(), poll).toBe(1);
        return 'Node pv1-1';
      },
      async () => {
        await page.getByRole('button', { name: '← All nodes' }).click();
        await page.getByRole('button', { name: 'pv1-3', exact: true }).click();
        await expect.poll(() => page.getByRole('heading', { level: 2 }).first().textContent(), poll).toContain('pv1-3');
        return 'Node pv1-3 (unreachable)';
      },
    );
  });

  it('Templates', async () => {
    await nav('Templates').click();
    await expect.poll(() => page.getByRole('table', { name: /^Template catalogue of / }).count(), poll).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Run the template check again' }).isEnabled(), poll).toBe(true);
    await expectClean(async () => 'Templates');
  });

  it('Proxies, its drawer, the delete confirmation and Create proxy', async () => {
    await nav('Proxies').click();
    const details = page.getByRole('button', { name: `Details of ${firstProxy}` });
    await expect.poll(() => details.count(), poll).toBe(1);
    await expectClean(
      async () => 'Proxies',
      async () => {
        await details.click();
        const drawer = page.getByRole('complementary', { name: `Details of ${firstProxy}` });
        await expect.poll(() => drawer.getByRole('region', { name: 'Mark' }).count(), poll).toBe(1);
        return 'Proxy drawer';
      },
      async () => {
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('complementary', { name: `Details of ${firstProxy}` }).count()).toBe(0);
        await page.getByRole('checkbox', { name: `Select ${firstProxy}` }).check();
        await page.getByRole('grid', { name: 'Proxies' }).click({ position: { x: 5, y: 5 } });
        await page.keyboard.press('Delete');
        await expect.poll(() => page.getByRole('dialog', { name: 'Delete 1 proxy?' }).count(), poll).toBe(1);
        return 'Delete confirmation';
      },
      async () => {
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        await page.getByRole('checkbox', { name: `Select ${firstProxy}` }).uncheck();
        await page.getByRole('button', { name: 'New proxy' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create proxy' });
        await expect.poll(() => dialog.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
        return 'Create proxy';
      },
    );
  });

  it('Tasks, a task’s details and the task panel', async () => {
    await nav('Proxies').click();
    await page.getByRole('button', { name: 'New proxy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('a11y-one');
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    // The dialog answers once main has accepted the task; the view changes after that, so wait for it.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Tasks');
    const details = page.getByRole('article', { name: 'Task Create a11y-one' });
    await expect.poll(() => details.getByText('succeeded', { exact: true }).first().isVisible(), poll).toBe(true);
    await expect.poll(() => details.getByRole('log').textContent(), poll).toContain('TASK OK');
    await expectClean(
      async () => 'Tasks with a task’s details',
      async () => {
        // A second create whose clone never ends keeps a task running for the status bar's panel.
        demo.sim.faults.hangTask({ type: 'qmclone' }, 1);
        await nav('Proxies').click();
        await page.getByRole('button', { name: 'New proxy' }).click();
        const second = page.getByRole('dialog', { name: 'Create proxy' });
        await expect.poll(() => second.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
        await second.getByRole('textbox', { name: 'Name' }).fill('a11y-two');
        await second.getByRole('button', { name: 'Create proxy' }).click();
        await expect.poll(() => page.getByRole('article', { name: 'Task Create a11y-two' }).count(), poll).toBe(1);
        return 'Tasks with a running task';
      },
      async () => {
        await nav('Overview').click();
        const running = page.getByRole('status', { name: 'Running tasks' }).getByRole('button');
        await running.click();
        await expect.poll(() => page.getByRole('region', { name: 'Running and recent tasks' }).count(), poll).toBe(1);
        return 'Task panel';
      },
    );
    await page.keyboard.press('Escape');
  });

  it('Cleanup, before and after a scan', async () => {
    await nav('Cleanup').click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Cluster' }).inputValue(), poll).not.toBe('');
    await expectClean(
      async () => 'Cleanup',
      async () => {
        await page.getByRole('button', { name: 'Scan', exact: true }).click();
        await expect.poll(() => page.getByRole('table', { name: 'Seeds kept' }).count(), poll).toBe(1);
        return 'Cleanup after a scan';
      },
    );
  });

  it('Settings and the shortcut help', async () => {
    await nav('Settings').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBe('Settings');
    await expectClean(
      async () => 'Settings',
      async () => {
        await page.getByRole('heading', { level: 1 }).first().click();
        await page.keyboard.press('?');
        await expect.poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count(), poll).toBe(1);
        return 'Shortcut help';
      },
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('each step of the connect wizard', async () => {
    const fill = async (name: string) => {
      const token = sim.tokens[name]!;
      await wizard().getByLabel('Token ID').fill(token.tokenId);
      await wizard().getByLabel('Token secret').fill(token.secret);
    };
    const failures = await scanAll(
      async () => {
        await page.getByRole('button', { name: 'Connect a cluster' }).click();
        await expect.poll(() => wizard().count()).toBe(1);
        return 'Wizard 1. Address and token';
      },
      async () => {
        await wizard().getByRole('button', { name: 'Check connection' }).click();
        await expect.poll(() => wizard().getByLabel('Token secret').getAttribute('aria-invalid')).toBe('true');
        return 'Wizard 1. with the fields in error';
      },
      async () => {
        await wizard().getByLabel('Cluster URL').fill(sim.url);
        await fill('noSeedAllocate');
        await wizard().getByRole('button', { name: 'Check connection' }).click();
        await expect.poll(() => wizard().getByRole('heading', { name: '2. Trust the certificate' }).count(), poll).toBe(1);
        return 'Wizard 2. Trust the certificate';
      },
      async () => {
        await wizard()
          .getByRole('radio', { name: /pin its fingerprint/ })
          .check();
        await wizard().getByRole('button', { name: 'Trust this certificate and continue' }).click();
        await expect.poll(() => wizard().getByRole('heading', { name: '3. Privileges' }).count(), poll).toBe(1);
        return 'Wizard 3. Privileges (failed)';
      },
      async () => {
        await wizard().getByRole('button', { name: 'Use another token' }).click();
        await fill('operator');
        await wizard().getByRole('button', { name: 'Check connection' }).click();
        await expect.poll(() => wizard().getByRole('heading', { name: '4. Choose what to use' }).count(), poll).toBe(1);
        await wizard().getByLabel('Cluster name').fill('lab-a11y');
        await wizard().getByRole('button', { name: 'Test connection' }).click();
        await expect
          .poll(() => wizard().getByRole('status').filter({ hasText: 'Connection test' }).textContent(), poll)
          .toContain('passed');
        return 'Wizard 4. Choose what to use';
      },
    );
    // Saved whatever was found: the next checks need the cluster.
    await wizard().getByRole('button', { name: 'Save cluster' }).click();
    await expect.poll(() => wizard().count(), poll).toBe(0);
    expectNone(failures);
  });

  it('Settings with a connected cluster, and the template builder', async () => {
    await expect.poll(() => page.getByRole('list', { name: 'Connected clusters' }).textContent(), poll).toContain('lab-a11y');
    await expectClean(
      async () => 'Settings with two clusters',
      async () => {
        await nav('Templates').click();
        await page.getByRole('combobox', { name: 'Cluster' }).selectOption({ label: 'lab-a11y' });
        await expect.poll(() => page.getByRole('table', { name: 'Template catalogue of lab-a11y' }).count(), poll).toBe(1);
        await expect.poll(() => page.getByRole('button', { name: 'Run the template check again' }).isEnabled(), poll).toBe(true);
        return 'Templates of a connected cluster';
      },
      async () => {
        await page.getByRole('button', { name: 'Build a template' }).click();
        const builder = page.getByRole('dialog', { name: /^Build a template on / });
        await expect.poll(() => builder.count(), poll).toBe(1);
        // The preflight's report (what stops the build, the commands to fix it) is in the page when checked.
        await expect.poll(() => builder.getByRole('region', { name: 'Preflight' }).count(), poll).toBe(1);
        return 'Template builder';
      },
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('the main views at 1024×700', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const view = (name: string, ready: () => Promise<unknown>) => async () => {
      await nav(name).click();
      await ready();
      return name;
    };
    await expectClean(
      view('Overview', () => expect.poll(() => page.getByRole('article', { name: 'Node pv1-1' }).first().count(), poll).toBe(1)),
      view('Nodes', () => expect.poll(() => page.getByRole('table', { name: 'Nodes' }).count(), poll).toBe(1)),
      view('Templates', () => expect.poll(() => page.getByRole('table', { name: /^Template catalogue of / }).count(), poll).toBe(1)),
      view('Proxies', () => expect.poll(() => page.getByRole('grid', { name: 'Proxies' }).count(), poll).toBe(1)),
      view('Tasks', () => expect.poll(() => page.getByRole('heading', { level: 1, name: 'Tasks' }).count(), poll).toBe(1)),
      view('Cleanup', () => expect.poll(() => page.getByRole('combobox', { name: 'Cluster' }).count(), poll).toBe(1)),
      view('Settings', () => expect.poll(() => page.getByRole('list', { name: 'Connected clusters' }).count(), poll).toBe(1)),
    );
  });
});
