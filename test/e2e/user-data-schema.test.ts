/**
 * Issue 25 item 1 end to end, at 1280×800 against the demo cluster: a
 * user-data whose write_files entry has a key typed wrong (`contnet`) is
 * marked in the editor at its line with cloud-init's own schema, and Create
 * is refused in words naming that line before any request reaches Proxmox;
 * a top-level key no module reads is only a warning. The dialog passes axe
 * with the marks shown.
 */
import { expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../support/axe';
import { demoHost, describeE2e, type E2eOptions } from '../support/e2e';

const poll = { timeout: 30_000 };
const setup: E2eOptions = { host: demoHost, viewport: { width: 1280, height: 800 } };

const TYPO = [
  '#cloud-config',
  'packages:',
  '  - squid',
  'write_files:',
  '  - path: /etc/squid/conf.d/egress.conf',
  '    contnet: "http_port 3128"',
  'packges: [curl]',
  '',
].join('\n');

describeE2e("user-data is checked against cloud-init's schema before any request", setup, ({ page, demo, problems }) => {
  it('marks the typo at line 6, warns of the unknown top-level key, and Create is refused naming line 6 with nothing sent', async () => {
    await page.getByRole('button', { name: 'Proxies', exact: true }).click();
    await page.keyboard.press('Control+n');
    const dialog = page.getByRole('dialog', { name: 'Create proxy' });
    await expect.poll(() => dialog.getByLabel('Template').inputValue(), poll).toBe('debian-13-template');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e-typo');

    const editor = dialog.locator('.cloud-init-editor .cm-content');
    await editor.click();
    await page.keyboard.press('Control+a');
    // Pasted (CodeMirror reads the clipboard event itself): Chromium's own insertText into a contenteditable
    // writes inline styles the CSP refuses, which no user's typing does.
    await editor.evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, TYPO);

    // The marks: an error under the typo on line 6, a warning under the top-level one on line 7.
    const lines = dialog.locator('.cloud-init-editor .cm-line');
    await expect.poll(() => lines.nth(5).locator('.cm-lintRange-error').textContent(), poll).toBe('contnet');
    await expect.poll(() => lines.nth(6).locator('.cm-lintRange-warning').textContent(), poll).toBe('packges');

    // Hovering the mark shows the schema's words.
    await lines.nth(5).locator('.cm-lintRange-error').hover();
    const tip = dialog.locator('.cloud-init-editor .cm-tooltip-lint');
    await expect.poll(() => tip.textContent(), poll).toContain('“contnet” is not a key cloud-init knows in “write_files.0”; it takes');
    expect(await tip.textContent()).toContain('content');
    // Readable in both themes while shown (axe's contrast rule sees into the editor's shadow root).
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      const v = await axeViolations(page, '[role="dialog"]');
      expect(v, formatViolations(`Create proxy, the mark's words shown, ${theme}`, v)).toEqual([]);
    }
    await page.mouse.move(0, 0);

    const writesBefore = demo.sim.requests.records.filter((r) => r.method !== 'GET').length;
    await dialog.getByRole('button', { name: 'Create proxy' }).click();
    const notice = dialog.getByRole('alert').filter({ hasText: 'The proxy was not created' });
    await expect.poll(() => notice.textContent(), poll).toContain("does not match cloud-init's schema at line 6");
    expect(await notice.textContent()).toContain('Nothing was created.');
    expect(demo.sim.requests.records.filter((r) => r.method !== 'GET').length).toBe(writesBefore);
    expect(await dialog.isVisible()).toBe(true);

    const v = await axeViolations(page, '[role="dialog"]');
    expect(v, formatViolations('Create proxy with schema marks', v)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
