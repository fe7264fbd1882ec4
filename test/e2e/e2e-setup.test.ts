/**
 * Issue 21: the one e2e set-up (support/e2e.ts) itself. Its watch records
 * what a page must never do, which every e2e file's last test then checks:
 * a script the Content Security Policy refuses (the check the hand-rolled
 * `page.on('pageerror')` set-ups missed), and an uncaught error; on a second
 * page too. The block takes what it provokes back out, so its own last check
 * still finds nothing.
 */
import { expect, it } from 'vitest';
import { describeE2e } from '../support/e2e';

const poll = { timeout: 10_000 };

describeE2e('the e2e set-up', { host: { demo: 'off' } }, ({ host: t, page, problems, newPage }) => {
  const take = () => problems.splice(0);

  it('serves the app from the host it started, on the page it opened', async () => {
    expect(new URL(page.url()).origin).toBe(new URL(t.host.url).origin);
    await expect.poll(() => page.getByRole('navigation', { name: 'Views' }).count(), poll).toBe(1);
  });

  it('records a Content Security Policy violation: an inline script the policy refuses', async () => {
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.head.append(s);
    });
    await expect.poll(() => problems.some((p) => /Content Security Policy/i.test(p)), poll).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    take();
  });

  it('records an uncaught error, on a second page too', async () => {
    const other = await newPage({ width: 800, height: 600 });
    await other.goto(t.host.url);
    await other.evaluate(() =>
      setTimeout(() => {
        throw new Error('e2e-setup-sentinel');
      }, 0),
    );
    await expect.poll(() => problems, poll).toContain('e2e-setup-sentinel');
    take();
    await other.close();
  });
});
