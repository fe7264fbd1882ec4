/**
 * The history database in the composed app: history.sqlite in the data
 * folder, `history.status` over IPC, the retention setting refused outside
 * 1-365 days in words and applied at once when saved, and the file closed
 * (its WAL folded in) when the app is disposed.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { HistoryStatusView } from '../../../../shared/channels/history';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function startApp() {
  const dataDir = await mkdtemp(join(tmpdir(), 'egress-history-app-'));
  const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo: 'off' });
  let disposed = false;
  cleanups.push(async () => {
    if (!disposed) await app.dispose();
  });
  const status = async () => {
    const answer = await app.router.dispatch('history.status', {}, ctx);
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value as HistoryStatusView;
  };
  const dispose = async () => {
    disposed = true;
    await app.dispose();
  };
  return { app, dataDir, status, dispose };
}

describe('the history database in the app', () => {
  it('lives in the data folder and says so over IPC', async () => {
    const { dataDir, status } = await startApp();
    const answer = await status();
    expect(answer).toMatchObject({ path: join(dataDir, 'history.sqlite'), schemaVersion: 3, retentionDays: 30 });
    expect(answer.sizeBytes).toBeGreaterThan(0);
    if (process.platform !== 'win32') expect(statSync(answer.path).mode & 0o777).toBe(0o600);
    expect(answer.movedAside).toBeUndefined();
    expect(answer.degraded).toBeUndefined();
  });

  it('refuses a retention outside 1-365 days in words, and applies a saved one at once', async () => {
    const { app, status } = await startApp();
    const refused = await app.router.dispatch('settings.set', { settings: { historyRetentionDays: 400 } }, ctx);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.kind).toBe('invalid-input');
      expect(refused.error.message).toContain('Keep the history at most 365 days.');
    }
    const now = Date.now();
    app.history.recordCheck({ clusterId: 'home', vmid: 105, at: now - 10 * 86_400_000, ok: true, origin: 'scheduled' });
    app.history.recordCheck({ clusterId: 'home', vmid: 105, at: now - 86_400_000, ok: true, origin: 'scheduled' });
    const saved = await app.router.dispatch('settings.set', { settings: { historyRetentionDays: 7 } }, ctx);
    expect(saved.ok).toBe(true);
    expect((await status()).retentionDays).toBe(7);
    expect(app.history.checks('home', 105, 0).map((c) => c.at)).toEqual([now - 86_400_000]);
  });

  it('writes what is queued and closes the file when the app is disposed', async () => {
    const { app, dataDir, dispose } = await startApp();
    app.history.recordCheck({ clusterId: 'home', vmid: 105, at: Date.now(), ok: true, origin: 'manual' });
    await dispose();
    // A clean close folds the WAL into the file and removes it (sqlite.org/wal.html).
    expect(existsSync(join(dataDir, 'history.sqlite-wal'))).toBe(false);
    const reopened = openHistoryDatabase({ file: join(dataDir, 'history.sqlite'), logger: createMemoryLogger() });
    expect(reopened.checks('home', 105, 0).map((c) => c.origin)).toEqual(['manual']);
    reopened.close();
  });
});
