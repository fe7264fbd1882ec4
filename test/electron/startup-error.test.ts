/**
 * A startup error in the Electron shell is never a silent quit: the error
 * goes to the log file, an error box names it and the log's path, and the
 * app exits non-zero. Run under the stand-in electron module, failing once
 * while the app is getting ready (the data folder cannot be resolved) and
 * once before that (at import).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFakeElectron, type FakeElectron } from '../support/fake-electron';

async function flush() {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
}

type Failure = 'none' | 'ready' | 'import';

/** A fresh stand-in electron module (failing as asked) and a fresh import of the entry against it. */
async function start(fail: Failure, before?: (fake: FakeElectron) => void): Promise<FakeElectron> {
  const fake = createFakeElectron();
  before?.(fake);
  if (fail === 'ready') {
    const getPath = fake.app.getPath.bind(fake.app);
    fake.app.getPath = (name: string) => {
      if (name === 'userData') throw new Error('the data folder is on a disk that caught fire');
      return getPath(name);
    };
  }
  if (fail === 'import') {
    fake.app.enableSandbox = () => {
      throw new Error('no sandbox on this machine');
    };
  }
  vi.resetModules();
  vi.doMock('electron', () => fake.module);
  delete process.env.ELECTRON_RENDERER_URL;
  await import('../../main/index');
  await flush();
  return fake;
}

describe('Electron shell startup errors, under a stand-in electron module', () => {
  it('starts without an error box when nothing fails, and logs to a file in the logs folder', async () => {
    const fake = await start('none');
    expect(fake.errorBoxes).toEqual([]);
    expect(fake.app.exitCode).toBeUndefined();
    expect(fake.windows).toHaveLength(1);
    expect(fake.app.logsPathSet).toBe(true);
    expect(existsSync(join(fake.app.getPath('logs'), 'main.log'))).toBe(true);
    // Closing the window disposes the composed app (its timers and the demo cluster).
    fake.windows[0]!.emit('closed');
  });

  it('keeps the log folder 0700 and its file 0600, even where an older version left them open', async () => {
    if (process.platform === 'win32') return;
    const fake = await start('none', (f) => {
      const dir = f.app.getPath('logs');
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o755);
      writeFileSync(join(dir, 'main.log'), 'an older line\n');
      chmodSync(join(dir, 'main.log'), 0o644);
    });
    const dir = fake.app.getPath('logs');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'main.log')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toMatch(/^an older line\n/);
    fake.windows[0]!.emit('closed');
  });

  it('shows the error and the log path, logs it, and exits non-zero when startup fails while getting ready', async () => {
    const fake = await start('ready');
    const logPath = join(fake.app.getPath('logs'), 'main.log');
    expect(fake.errorBoxes).toHaveLength(1);
    const [box] = fake.errorBoxes;
    expect(box!.title).toMatch(/could not start/i);
    expect(box!.content).toContain('the data folder is on a disk that caught fire');
    expect(box!.content).toContain(logPath);
    expect(fake.app.exitCode).toBe(1);
    expect(fake.windows).toHaveLength(0);
    expect(readFileSync(logPath, 'utf8')).toContain('the data folder is on a disk that caught fire');
  });

  it('shows the error box and exits non-zero when startup fails before the app is ready', async () => {
    const fake = await start('import');
    expect(fake.errorBoxes).toHaveLength(1);
    expect(fake.errorBoxes[0]!.content).toContain('no sandbox on this machine');
    expect(fake.errorBoxes[0]!.content).toContain(join(fake.app.getPath('logs'), 'main.log'));
    expect(fake.app.exitCode).toBe(1);
    expect(fake.windows).toHaveLength(0);
  });
});
