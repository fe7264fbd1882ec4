/**
 * Issue 24 §3: the desktop's FileSaver (main/electron/save-dialog.ts): Electron's save dialog over the window,
 * offering the export's file name in Downloads; the text written where the user chose, readable by the user alone
 * (it may hold passwords); a cancel writes nothing; a folder that cannot be written is said in words.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'egress-save-dialog-'));
const answers: { canceled: boolean; filePath?: string }[] = [];
const asked: { defaultPath?: string }[] = [];
vi.mock('electron', () => ({
  app: { getPath: (name: string) => join(dir, name) },
  dialog: {
    showSaveDialog: async (...args: unknown[]) => {
      asked.push(args.at(-1) as { defaultPath?: string });
      return answers.shift() ?? { canceled: true };
    },
  },
}));
const { createElectronFileSaver } = await import('../../main/electron/save-dialog');

afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  answers.length = 0;
  asked.length = 0;
});

describe('the desktop save dialog', () => {
  it('offers the file name in Downloads and writes the text there, 0600', async () => {
    const path = join(dir, 'proxy.pac');
    answers.push({ canceled: false, filePath: path });
    expect(await createElectronFileSaver(() => undefined).save('proxy.pac', 'function FindProxyForURL() {}')).toBe(path);
    expect(asked[0]!.defaultPath).toBe(join(dir, 'downloads', 'proxy.pac'));
    expect(readFileSync(path, 'utf8')).toBe('function FindProxyForURL() {}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('writes nothing when the user cancels', async () => {
    answers.push({ canceled: true });
    expect(await createElectronFileSaver(() => undefined).save('proxychains.conf', 'x')).toBeUndefined();
    expect(existsSync(join(dir, 'proxychains.conf'))).toBe(false);
  });

  it('says in words, classified, when the file cannot be written there', async () => {
    const gone = join(dir, 'no-such-folder', 'proxies.csv');
    answers.push({ canceled: false, filePath: gone });
    await expect(createElectronFileSaver(() => undefined).save('proxies.csv', 'x')).rejects.toMatchObject({
      kind: 'permanent',
      message: expect.stringContaining(`Could not save ${gone}`),
      hint: 'Pick another folder and save again.',
    });
  });
});
