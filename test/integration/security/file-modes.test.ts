/**
 * Everything the app keeps on disk is the user's alone: after a real
 * browser-mode session (save a profile with its secret, create a proxy,
 * delete it, export, a corrupt journal line and a corrupt profile file each
 * kept aside), every folder under the data folder is 0700 and every file
 * 0600. The session runs under a umask of 0, so no mode comes from the
 * umask: each one is set explicitly. It starts from a data folder an older
 * version left 0755 with a 0644 journal and log, which must be tightened too.
 */
import { appendFileSync, chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../support/compose-app';
import { nodeRuntime } from '../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../main/log/logger';
import { MutableClusterDirectory } from '../../../main/services/clusters/cluster';
import { JOURNAL_FILE } from '../../../main/services/tasks/records/journal';
import { createFileKeySealer } from '../../../main/services/tasks/sealer';
import { createTaskManager } from '../../../main/services/tasks/task-manager';
import { startSimulator, type Simulator } from '../../../main/simulator';
import { simProfile } from '../services/profiles/helpers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
type Answer<T> = { ok: true; value: T } | { ok: false; error: { message: string } };

function walk(dir: string): { path: string; kind: 'dir' | 'file' | 'other'; mode: number }[] {
  const out: { path: string; kind: 'dir' | 'file' | 'other'; mode: number }[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const st = lstatSync(path);
    const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    out.push({ path, kind, mode: st.mode & 0o777 });
    if (kind === 'dir') out.push(...walk(path));
  }
  return out;
}

describe.skipIf(process.platform === 'win32')('file modes of the data folder', () => {
  let sim: Simulator;
  let dataDir: string;
  let umask: number;
  const apps: ComposedApp[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 0 });
    dataDir = join(mkdtempSync(join(tmpdir(), 'egress-modes-')), 'egress-desk');
    // What an older version left: a world-readable folder and journal.
    mkdirSync(join(dataDir, 'tasks'), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'tasks'), 0o755);
    writeFileSync(join(dataDir, 'tasks', JOURNAL_FILE), '');
    chmodSync(join(dataDir, 'tasks', JOURNAL_FILE), 0o644);
    // The Electron shell's log folder lives in the data folder on Linux and Windows.
    mkdirSync(join(dataDir, 'logs'), { mode: 0o755 });
    chmodSync(join(dataDir, 'logs'), 0o755);
    writeFileSync(join(dataDir, 'logs', 'main.log'), '{"msg":"an older line"}\n', { mode: 0o644 });
    chmodSync(join(dataDir, 'logs', 'main.log'), 0o644);
    umask = process.umask(0);
  });

  afterAll(async () => {
    process.umask(umask);
    for (const app of apps) await app.dispose();
    await sim?.close();
  });

  function open() {
    const app = composeApp({
      mode: 'browser',
      version: '0',
      runtime: nodeRuntime(),
      logger: createMemoryLogger(),
      dataDir,
      demo: 'off',
    });
    apps.push(app);
    return async <T>(channel: string, input: unknown = {}) => {
      const answer = (await app.router.dispatch(channel, input, ctx)) as Answer<T>;
      if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
      return answer.value;
    };
  }

  async function settled(call: ReturnType<typeof open>, id: string) {
    for (let i = 0; i < 400; i++) {
      const task = await call<{ state: string }>('tasks.get', { id });
      if (!['queued', 'running'].includes(task.state)) return task;
      await sleep(25);
    }
    throw new Error(`task ${id} did not settle`);
  }

  it('after a whole session every folder is 0700 and every file 0600', async () => {
    let call = open();
    const tokenId = sim.tokens.admin!.tokenId;
    const { id: clusterId } = await call<{ id: string }>('profiles.save', {
      profile: simProfile(sim, tokenId, { token: { secretStorage: 'plaintext', tokenId } }),
      secret: sim.tokens.admin!.secret,
    });
    const made = await call<{ taskIds: string[] }>('tasks.createProxies', {
      clusterId,
      template: 't9001',
      machineType: 'small',
      name: 'proxy-modes',
      count: 1,
      cloudInit: '#cloud-config\n',
    });
    expect(await settled(call, made.taskIds[0]!)).toMatchObject({ state: 'succeeded' });
    const vm = [...sim.state.vms.values()].find((v) => v.config.name === 'proxy-modes')!;
    const deleted = await call<{ taskIds: string[] }>('tasks.deleteProxies', { clusterId, ids: [`vms/${vm.vmid}/proxy-modes`] });
    expect(await settled(call, deleted.taskIds[0]!)).toMatchObject({ state: 'succeeded' });
    await call('profiles.export', {});
    await apps.pop()!.dispose();

    // A corrupt journal line, kept aside at the next start.
    appendFileSync(join(dataDir, 'tasks', JOURNAL_FILE), 'null\n');
    call = open();
    const listed = await call<{ notices?: string[] }>('tasks.list');
    expect(listed.notices?.[0]).toMatch(/kept in .*tasks\.jsonl\.corrupt/);
    await apps.pop()!.dispose();

    // A corrupt profile file, kept aside at the next start.
    writeFileSync(join(dataDir, 'profiles.json'), '{ not json');
    chmodSync(join(dataDir, 'profiles.json'), 0o644);
    call = open();
    await call('profiles.list');
    await apps.pop()!.dispose();

    const entries = walk(dataDir);
    const names = entries.map((e) => e.path.slice(dataDir.length + 1)).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'profiles.json',
        'vault.key',
        'tasks',
        `tasks/${JOURNAL_FILE}`,
        `tasks/${JOURNAL_FILE}.corrupt`,
        'tasks/tasks.key',
      ]),
    );
    expect(names.some((n) => /^profiles\.corrupt-.*\.json$/.test(n))).toBe(true);
    const wrong = [{ path: dataDir, kind: 'dir' as const, mode: lstatSync(dataDir).mode & 0o777 }, ...entries]
      .filter((e) => e.mode !== (e.kind === 'dir' ? 0o700 : 0o600))
      .map((e) => `${e.path.slice(dataDir.length) || '/'} ${e.kind} 0${e.mode.toString(8)}`);
    expect(wrong, `walked ${entries.length + 1} entries`).toEqual([]);
    console.log(`[file modes] ${entries.length + 1} entries under the data folder, all 0700/0600: ${names.join(', ')}`);
  }, 60_000);

  it('the task journal alone (no composition root) tightens what an older version left, leftover temporary file included', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'egress-modes-journal-')), 'tasks');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const line = JSON.stringify({
      id: 't-1',
      kind: 'doctor',
      clusterId: 'c',
      target: 'C',
      state: 'succeeded',
      progress: 1,
      steps: [],
      upids: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      attempts: 1,
      input: { kind: 'doctor' },
    });
    for (const [name, text] of [
      [JOURNAL_FILE, line + '\nnull\n'],
      [`${JOURNAL_FILE}.tmp`, 'left by a crash mid-compaction\n'],
      [`${JOURNAL_FILE}.corrupt`, 'an older copy\n'],
      ['tasks.key', ''],
    ] as const) {
      writeFileSync(join(dir, name), text);
      chmodSync(join(dir, name), 0o644);
    }
    rmSync(join(dir, 'tasks.key'));
    const manager = createTaskManager({ directory: new MutableClusterDirectory(), journalDir: dir, logger: createMemoryLogger() });
    expect(manager.list().map((t) => t.id)).toEqual(['t-1']);
    // The sealer writes its key on first use.
    await createFileKeySealer(dir).seal('#cloud-config\n');
    await manager.close();
    const wrong = [{ path: dir, kind: 'dir' as const, mode: lstatSync(dir).mode & 0o777 }, ...walk(dir)]
      .filter((e) => e.mode !== (e.kind === 'dir' ? 0o700 : 0o600))
      .map((e) => `${e.path} 0${e.mode.toString(8)}`);
    expect(wrong).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([JOURNAL_FILE, `${JOURNAL_FILE}.corrupt`, 'tasks.key']);
  });
});
