/**
 * Launches the real packaged-layout app (out/main/index.js) with
 * Playwright's Electron driver. It needs the Electron binary, which cannot
 * be downloaded on machines without internet: there the test skips and
 * says so.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron as electron } from 'playwright-core';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

function electronBinary(): string | undefined {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = require('electron') as unknown;
  return typeof binary === 'string' && existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();
const built = existsSync(join(root, 'out', 'main', 'index.js'));
const display = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) || process.platform !== 'linux';
const skipReason = !binary
  ? 'the Electron binary is not installed (it is fetched from outside the package registries; run `node node_modules/electron/install.js` on a networked machine)'
  : !built
    ? 'the app is not built: run `npm run build`'
    : !display
      ? 'no display: run under xvfb-run to launch a real window'
      : undefined;
if (skipReason) console.log(`[electron smoke] skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('the real Electron app', () => {
  it('starts, shows the shell, and answers over the preload bridge', async () => {
    const app = await electron.launch({
      executablePath: binary!,
      args: [join(root, 'out', 'main', 'index.js'), ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    });
    try {
      const page = await app.firstWindow();
      await expect.poll(() => page.getByRole('status', { name: 'Connection' }).textContent()).toContain('Connected to main (desktop)');
      expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => Object.keys((window as unknown as { egressDesk: object }).egressDesk).sort())).toEqual([
        'on',
        'request',
        'transport',
      ]);
      expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
      expect(page.url()).toBe('app://egress-desk/index.html');
    } finally {
      await app.close();
    }
  });
});
