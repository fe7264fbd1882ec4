/**
 * The demo keeps node pv1-3 down (it shows the alert path), so any demo
 * session longer than the rule's 60 s raises "Node unreachable", and its
 * notice stays until dismissed. At 1024×768 that notice must not stand
 * between the user and the app's own controls: it lives in the status bar
 * under the content (issue 23: not a row of its own, which took the view's
 * height), instead of floating over its bottom right. Here the rule's
 * wait is set to 0 once the page is up, so the notice comes at the next
 * health check; then every control in view is hit where it is drawn, a
 * click on the right end of a field where a floating notice sat focuses that
 * field, the notice is an alert for assistive technology with a close button
 * reached from the keyboard, and axe finds nothing on the page.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, formatViolations } from '../support/axe';
import { screenshotPath } from '../support/screenshots';
import { describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const ctx = { signal: new AbortController().signal, transport: 'test' };

/** Controls in <main> drawn in its visible part whose centre or right end another element covers, by name. */
function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const main = document.querySelector('main')!;
    const view = main.getBoundingClientRect();
    const covered: string[] = [];
    for (const el of main.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex="0"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const y = r.top + r.height / 2;
      if (y < view.top || y > view.bottom || r.left > view.right) continue; // scrolled out of sight: nothing to hit
      for (const x of [r.left + r.width / 2, r.right - 4]) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(el === hit || el.contains(hit) || hit.contains(el))) {
          covered.push(
            `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}" under ${hit?.className || hit?.tagName}`,
          );
          break;
        }
      }
    }
    return covered;
  });
}

const setup: E2eOptions = {
  // The demo's health checks every 0.5 s (and no long back-off for the node that stays down).
  host: { demoTimeScale: 0.02, monitoring: { health: { intervalMs: 500, maxBackoffMs: 1_000 } } },
  viewport: { width: 1024, height: 768 },
};

describeE2e('the notice of a demo alert at 1024×768', setup, ({ host: t, page, problems }) => {
  const notices = () => page.getByRole('list', { name: 'Notifications' });
  const nodeNotice = () => notices().getByRole('listitem').filter({ hasText: 'Alert: Node unreachable' });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: new RegExp(`^${name}`) });

  beforeAll(async () => {
    await nav('Settings').click();
    await page.getByLabel('Proxy check URL').waitFor(poll);
    // The page listens now: no waiting out the rule's 60 s.
    const set = await t.app.router.dispatch('alerts.setRules', { rules: { nodeUnreachableSeconds: 0 } }, ctx);
    if (!set.ok) throw new Error(JSON.stringify(set));
    await nodeNotice().waitFor(poll);
  });

  it('covers no control: each is hit where it is drawn, and a click where a floating notice sat reaches the field', async () => {
    // Where the notice used to float (bottom right, over the form): the right end of the proxy check URL field.
    const field = page.getByLabel('Proxy check URL');
    await field.scrollIntoViewIfNeeded();
    const box = (await field.boundingBox())!;
    await page.mouse.click(box.x + box.width - 8, box.y + box.height / 2);
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await coveredControls(page)).toEqual([]);
    const notice = (await nodeNotice().boundingBox())!;
    const main = (await page.getByRole('main').boundingBox())!;
    expect(notice.y).toBeGreaterThanOrEqual(main.y + main.height); // below the content, not over it
    await page.screenshot({ path: screenshotPath('alert-notice-settings-1024.png') });

    await nav('Proxies').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), poll).toBe('Proxies');
    await expect.poll(() => page.getByRole('row').count(), poll).toBeGreaterThan(1);
    expect(await coveredControls(page)).toEqual([]);
  });

  it('is an alert for assistive technology, closed from the keyboard, and never took the room of the view', async () => {
    expect(await nodeNotice().getByRole('alert').textContent()).toMatch(/^Alert: Node unreachable, node pv1-3 .*does not answer/);
    const violations = await axeViolations(page);
    expect(violations, formatViolations('page with the alert notice', violations)).toEqual([]);
    const mainBefore = (await page.getByRole('main').boundingBox())!.height;
    const dismiss = nodeNotice().getByRole('button', { name: /^Dismiss: Alert: Node unreachable/ });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => nodeNotice().count(), poll).toBe(0);
    // Issue 23: the notice sat in the status bar, so the view had its whole height all along.
    expect((await page.getByRole('main').boundingBox())!.height).toBe(mainBefore);
    // The alert itself stays, counted beside Alerts: the notice was only its announcement.
    expect(await nav('Alerts').textContent()).toMatch(/^Alerts1 \(1 open\)$/);
    expect(problems).toEqual([]);
  });
});
