/**
 * The start-fault cells of the fault matrix (matrix.ts startMatrix): the data folder as the app finds it when it
 * starts, on each path it starts by. Each cell sets the fault up, starts the app, judges what the user is told,
 * takes the fault away and judges the recovery.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { composeApp, type ComposedApp } from '../../support/compose-app';
import { nodeRuntime } from '../../../main/app/runtime-info';
import { writeRunState } from '../../../main/host/run-state';
import { newRunKey } from '../../../main/host/socket-auth';
import { createMemoryLogger } from '../../../main/log/logger';
import { openHistoryDatabase } from '../../../main/services/history/history-db';
import { loadSqlite, type DatabaseSync } from '../../../main/services/history/sqlite-module';
import type { HistoryStatusView } from '../../../shared/channels/history';
import { startCli, printedUrl, type CliProcess } from '../../support/cli-process';
import { mountSmallDisk, type SmallDisk } from '../../support/small-disk';
import { call as socketCall, goodClient } from '../host/raw-client';
import { plainProfile } from '../services/profiles/helpers';
import type { StartFaultId, StartPath } from './matrix';

type Answer = { ok: boolean; value?: unknown; error?: { kind: string; message: string; hint?: string } };
type Call = (channel: string, input?: unknown) => Promise<Answer>;

/** What a cell started, for the test's afterEach to take down in reverse order. */
export const teardown: (() => unknown)[] = [];

const ctx = { signal: new AbortController().signal, transport: 'test' };

function startApp(dataDir: string): { app: ComposedApp; call: Call } {
  const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo: 'off' });
  let disposed: Promise<void> | undefined;
  const original = app.dispose.bind(app);
  const dispose = () => (disposed ??= original());
  teardown.push(dispose);
  app.dispose = dispose;
  return { app, call: (channel, input = {}) => app.router.dispatch(channel, input, ctx) as Promise<Answer> };
}

/** The browser-mode process on the folder, and a socket client to ask it what a page would. */
async function startHost(dataDir: string): Promise<{ child: CliProcess; call: Call; key: string }> {
  const child = startCli({ EGRESS_DESK_DATA_DIR: dataDir, EGRESS_DESK_PORT: '0' });
  teardown.push(async () => {
    if (child.alive()) {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  });
  const { port, key } = await printedUrl(child);
  const ws = await goodClient(port, key);
  teardown.push(() => ws.terminate());
  return { child, key, call: (channel, input = {}) => socketCall(ws, channel, input) };
}

async function historyStatus(call: Call): Promise<HistoryStatusView> {
  const answer = await call('history.status');
  if (!answer.ok) throw new Error(answer.error?.message);
  return answer.value as HistoryStatusView;
}

/** Another program holding the file so that no other connection can even read it. */
function holdHistory(file: string): () => void {
  const { DatabaseSync } = loadSqlite();
  const holder: DatabaseSync = new DatabaseSync(file);
  holder.exec('PRAGMA locking_mode = EXCLUSIVE');
  holder.exec('BEGIN EXCLUSIVE');
  holder.exec('CREATE TABLE IF NOT EXISTS held_by_another_program (x)');
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    holder.exec('ROLLBACK');
    holder.close();
  };
  teardown.push(release);
  return release;
}

const save = (name: string) => ({
  profile: plainProfile({ name, token: { secretStorage: 'plaintext', tokenId: 'egress@pve!desk' } }),
  secret: 'x'.repeat(36),
});
const target = (name: string) => ({ name, format: 'generic', url: 'http://127.0.0.1:9/hook', enabled: true });

/** An earlier run's data folder on a disk of its own: a cluster, settings, a webhook target, history, the run key. */
async function earlierRun(disk: SmallDisk): Promise<{ dataDir: string; key: string }> {
  const dataDir = join(disk.dir, 'egress-desk');
  const { app, call } = startApp(dataDir);
  for (const [channel, input] of [
    ['profiles.save', save('Lab')],
    ['settings.set', { settings: { historyRetentionDays: 20 } }],
    ['alerts.saveTarget', target('Phone')],
  ] as const) {
    const answer = await call(channel, input);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error?.message}`);
  }
  app.history.recordCheck({ clusterId: 'lab', vmid: 105, at: Date.now(), ok: true, origin: 'manual' });
  await app.dispose();
  const key = newRunKey();
  writeRunState(dataDir, { port: 0, key });
  return { dataDir, key };
}

const READ_ONLY = /is on a read-only disk/;

async function expectRefusedReadOnly(call: Call, channel: string, input: unknown): Promise<void> {
  const answer = await call(channel, input);
  expect(answer.ok, `${channel} on a read-only folder`).toBe(false);
  expect(answer.error, channel).toMatchObject({ kind: 'permanent', message: expect.stringMatching(READ_ONLY) });
}

async function historyLocked(path: StartPath): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'egress-start-locked-'));
  const file = join(dataDir, 'history.sqlite');
  openHistoryDatabase({ file, logger: createMemoryLogger() }).close();
  const release = holdHistory(file);
  const started = path === 'app' ? startApp(dataDir) : await startHost(dataDir);
  expect(await historyStatus(started.call)).toMatchObject({
    path: ':memory:',
    reopening: true,
    degraded: expect.stringMatching(/locked by another program/),
  });
  const at = Date.now();
  if ('app' in started) started.app.history.recordCheck({ clusterId: 'lab', vmid: 105, at, ok: true, origin: 'manual' });
  release();
  await vi.waitFor(async () => expect((await historyStatus(started.call)).path).toBe(file), { timeout: 15_000, interval: 100 });
  const now = await historyStatus(started.call);
  expect(now.degraded).toBeUndefined();
  expect(now.reopening).toBeUndefined();
  if ('app' in started) {
    await started.app.dispose();
    const reopened = openHistoryDatabase({ file, logger: createMemoryLogger() });
    expect(reopened.checks('lab', 105, 0).map((c) => c.at)).toEqual([at]);
    reopened.close();
  }
}

async function readOnlyAtStart(path: StartPath): Promise<void> {
  const disk = mountSmallDisk(2048);
  teardown.push(() => disk.unmount());
  const { dataDir, key } = await earlierRun(disk);
  disk.readOnly();
  const started = path === 'app' ? startApp(dataDir) : await startHost(dataDir);
  const list = await started.call('profiles.list');
  expect((list.value as { profiles: { name: string }[] }).profiles.map((p) => p.name)).toEqual(['Lab']);
  const history = await historyStatus(started.call);
  expect(history).toMatchObject({ path: ':memory:', retentionDays: 20 });
  expect(history.degraded).toMatch(READ_ONLY);
  expect(history.reopening).toBeUndefined();
  await expectRefusedReadOnly(started.call, 'settings.set', { settings: { historyRetentionDays: 10 } });
  await expectRefusedReadOnly(started.call, 'profiles.save', save('Second'));
  await expectRefusedReadOnly(started.call, 'alerts.saveTarget', target('Laptop'));
  const tasks = (await started.call('tasks.list')).value as { notices?: string[] };
  expect(tasks.notices?.some((n) => /the data folder is read-only/.test(n))).toBe(true);
  if ('child' in started) {
    // The run key was still read; that the next run will not find this one's is said in words.
    expect(started.key).toBe(key);
    expect(started.child.output()).toMatch(
      new RegExp(`The port and run key are not kept for the next run: ${dataDir.replace(/[/.]/g, '\\$&')} is on a read-only disk\\.`),
    );
    expect(started.child.output()).not.toMatch(/could not start|Unhandled|uncaught/i);
    expect(started.child.alive()).toBe(true);
  }
  // Writable again: the same saves land, without a restart.
  disk.writable();
  expect((await started.call('settings.set', { settings: { historyRetentionDays: 10 } })).ok).toBe(true);
  expect((await started.call('alerts.saveTarget', target('Laptop'))).ok).toBe(true);
}

export function runStartCell(path: StartPath, fault: StartFaultId): Promise<void> {
  return fault === 'historyLocked' ? historyLocked(path) : readOnlyAtStart(path);
}
