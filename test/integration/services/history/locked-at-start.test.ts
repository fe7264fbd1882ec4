/**
 * Issue 22, item 6: history.sqlite held locked by another program when the app starts. A lock held for about a
 * second is waited out; a longer one runs the session in memory, says so (`history.status`), and the file is tried
 * again in the background: once it frees, every check, node health entry and alert of the session moves into it
 * (alert ids kept), so after a restart nothing recorded is missing. The tries are bounded, and say when they stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase, type HistoryDatabaseOptions } from '../../../../main/services/history/history-db';
import { loadSqlite, type DatabaseSync } from '../../../../main/services/history/sqlite-module';
import type { AlertRecord, CheckRecord } from '../../../../main/services/history/types';
import type { HistoryStatusView } from '../../../../shared/channels/history';

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const holderScript = join(import.meta.dirname, 'hold-lock-child.ts');
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function existingHistory(): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'egress-locked-')), 'history.sqlite');
  const store = openHistoryDatabase({ file, logger: createMemoryLogger(), now: () => NOW });
  store.recordCheck(check(100, NOW - 60_000));
  store.raiseAlert(alert('node-unreachable', 'node:pv1', NOW - 60_000)); // open when the last session ended
  store.close();
  return file;
}

function open(file: string, options: Partial<HistoryDatabaseOptions> = {}) {
  const logger = createMemoryLogger();
  const store = openHistoryDatabase({ file, logger, now: () => NOW, ...options });
  cleanups.push(() => store.close());
  return { store, logger };
}

function check(vmid: number, at: number): CheckRecord {
  return { clusterId: 'home', vmid, at, ok: true, latencyMs: 40, egressAddress: '198.51.100.7', origin: 'scheduled' };
}

function alert(rule: AlertRecord['rule'], target: string, raisedAt: number) {
  return { rule, clusterId: 'home', target, label: target, raisedAt, reason: 'why', hint: 'what to do' };
}

/** Another connection holding the file the way another program would (no other connection can read it). */
function holdInProcess(file: string): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  const holder = new DatabaseSync(file);
  holder.exec('PRAGMA locking_mode = EXCLUSIVE');
  holder.exec('BEGIN EXCLUSIVE');
  holder.exec('CREATE TABLE IF NOT EXISTS held_by_another_program (x)');
  cleanups.push(() => {
    try {
      if (holder.isTransaction) holder.exec('ROLLBACK');
      holder.close();
    } catch {
      /* released already */
    }
  });
  return holder;
}

const release = (holder: DatabaseSync) => {
  holder.exec('ROLLBACK');
  holder.close();
};

/** A second process holding the file for `ms`; resolves once it holds it. */
async function holdInChild(file: string, ms: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, file, String(ms)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => child.kill());
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(line.toString()).toContain('held');
  return child;
}

describe('a history file locked by another program at start', () => {
  it('waits out a lock held for about a second: the session is on the file from the start', async () => {
    const file = await existingHistory();
    const holder = await holdInChild(file, 1300);
    const { store } = open(file);
    const status = store.status();
    expect(status.degraded).toBeUndefined();
    expect(status).toMatchObject({ path: file });
    expect(status.reopening).toBeUndefined();
    expect(store.checks('home', 100, 0).map((c) => c.at)).toEqual([NOW - 60_000]);
    await once(holder, 'exit');
  });

  it('runs in memory while it is held, says so, and moves the whole session into the file once it frees', async () => {
    const file = await existingHistory();
    const holder = holdInProcess(file);
    const { store, logger } = open(file, { reopenIntervalMs: 20 });
    expect(store.status()).toMatchObject({ path: ':memory:', sizeBytes: 0, reopening: true });
    expect(store.status().degraded).toMatch(
      /history\.sqlite could not be opened: it is locked by another program \(database is locked \(5\)\)/,
    );
    expect(logger.lines.some((l) => l.includes('locked by another program') && l.includes('moved into the file once it is free'))).toBe(
      true,
    );

    // The session records as usual meanwhile.
    store.recordCheck(check(105, NOW - 3000));
    store.recordCheck(check(105, NOW - 2000));
    store.recordNodeHealth({ clusterId: 'home', node: 'pv1', at: NOW - 2000, reason: 'Unreachable', latencyMs: 12 });
    const raised = store.raiseAlert(alert('egress-failing', 'vm:105', NOW - 2000));
    expect(raised.raised).toBe(true);
    store.acknowledgeAlert(raised.alert.id, NOW - 1500);
    const again = store.raiseAlert(alert('node-unreachable', 'node:pv1', NOW - 2000)); // the file's open one, unseen
    store.resolveAlert('node-unreachable', 'home', 'node:pv1', NOW - 1000);
    await new Promise((r) => setTimeout(r, 100)); // tries go on while it is held
    expect(store.status().reopening).toBe(true);

    release(holder);
    await vi.waitFor(() => expect(store.status().path).toBe(file), { timeout: 5000, interval: 20 });
    const status = store.status();
    expect(status.degraded).toBeUndefined();
    expect(status.reopening).toBeUndefined();
    expect(status.sizeBytes).toBeGreaterThan(0);
    expect(logger.lines.some((l) => l.includes('this session') && l.includes('moved into it'))).toBe(true);
    // Same answers as in memory, ids kept; the file's open node alert took this session's resolve instead of a twin.
    expect(store.checks('home', 105, 0).map((c) => c.at)).toEqual([NOW - 3000, NOW - 2000]);
    expect(store.openAlerts().map((a) => [a.id, a.rule, a.acknowledgedAt])).toEqual([[raised.alert.id, 'egress-failing', NOW - 1500]]);
    expect(store.acknowledgeAlert(again.alert.id, NOW)?.rule).toBe('node-unreachable');
    store.recordCheck(check(105, NOW - 500)); // and it writes to the file from now on
    store.close();

    // After a restart, nothing of that session is missing.
    const { store: next } = open(file);
    expect(next.checks('home', 105, 0).map((c) => c.at)).toEqual([NOW - 3000, NOW - 2000, NOW - 500]);
    expect(next.checks('home', 100, 0).map((c) => c.at)).toEqual([NOW - 60_000]);
    expect(next.nodeHealth('home', 'pv1', 0)).toEqual([
      { clusterId: 'home', node: 'pv1', at: NOW - 2000, reason: 'Unreachable', latencyMs: 12 },
    ]);
    const alerts = next.recentAlerts(0, 10);
    expect(alerts.filter((a) => a.rule === 'node-unreachable').map((a) => a.resolvedAt)).toEqual([NOW - 1000]);
    expect(alerts.find((a) => a.rule === 'egress-failing')).toMatchObject({ id: raised.alert.id, acknowledgedAt: NOW - 1500 });
    expect(next.status().degraded).toBeUndefined();
  });

  it('gives up after a bounded time and then says the session stays in memory until restart', async () => {
    const file = await existingHistory();
    holdInProcess(file);
    const { store, logger } = open(file, { reopenIntervalMs: 10, reopenForMs: 100 });
    await vi.waitFor(() => expect(store.status().reopening).toBeUndefined(), { timeout: 5000, interval: 20 });
    expect(store.status()).toMatchObject({ path: ':memory:' });
    expect(store.status().degraded).toMatch(/stayed locked by another program for \d+ s after the start/);
    expect(logger.lines.some((l) => l.includes('not tried again') && l.includes('until restart'))).toBe(true);
  });

  it('takes a last try when the app closes, so a lock freed between two tries still gets the session', async () => {
    const file = await existingHistory();
    const holder = holdInProcess(file);
    const { store } = open(file, { reopenIntervalMs: 3_600_000 });
    store.recordCheck(check(105, NOW - 1000));
    release(holder);
    store.close();
    expect(
      open(file)
        .store.checks('home', 105, 0)
        .map((c) => c.at),
    ).toEqual([NOW - 1000]);
  });

  it('in the app: history.status says in memory and being retried, then names the file once it frees', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'egress-locked-app-'));
    const file = join(dataDir, 'history.sqlite');
    openHistoryDatabase({ file, logger: createMemoryLogger() }).close();
    const holder = holdInProcess(file);
    const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo: 'off' });
    cleanups.push(() => app.dispose());
    const ctx = { signal: new AbortController().signal, transport: 'test' };
    const status = async () => {
      const answer = await app.router.dispatch('history.status', {}, ctx);
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value as HistoryStatusView;
    };
    expect(await status()).toMatchObject({
      path: ':memory:',
      reopening: true,
      degraded: expect.stringMatching(/locked by another program/),
    });
    app.history.recordCheck(check(105, Date.now()));
    release(holder);
    await vi.waitFor(async () => expect((await status()).path).toBe(file), { timeout: 10_000, interval: 100 });
    const now = await status();
    expect(now.degraded).toBeUndefined();
    expect(now.reopening).toBeUndefined();
    await app.dispose();
    const reopened = openHistoryDatabase({ file, logger: createMemoryLogger() });
    expect(reopened.checks('home', 105, 0)).toHaveLength(1);
    reopened.close();
  });
});
