/**
 * The data folder on a real small disk (a tmpfs), filled up or made
 * read-only. A journal write that fails stops the task before its next
 * request, and the task fails saying so; the app then starts on the still
 * full (or read-only) disk, lists what it knows and refuses new tasks with
 * the reason; once space is back, Resume converges on one marked VM.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { parseMark } from '../../../../main/core/provider/rules/mark';
import { Journal, JOURNAL_FILE } from '../../../../main/services/tasks/records/journal';
import { SEED_STORAGE } from '../../../../main/simulator';
import { mountSmallDisk, smallDiskMissing, type SmallDisk } from '../../../support/small-disk';
import { simProfile } from '../profiles/helpers';
import { cloudInit, startEnv, type Env } from './harness';

const missing = smallDiskMissing();
if (missing) console.log(`[data folder faults] skipped: ${missing}`);

const DISK_FULL = /could not record progress: disk full/;
const READ_ONLY = /could not record progress: the data folder is read-only/;
const createInput = (name: string) => ({
  clusterId: 'sim',
  template: 't9001',
  machineType: 'medium',
  node: 'pv1-1',
  count: 1,
  cloudInit,
  name,
});

/** The steps of a task as the journal on disk says (read by another handle, as a crash would leave them). */
function journalled(journalDir: string, id: string): { name: string; state: string }[] {
  let steps: { name: string; state: string }[] = [];
  for (const text of readFileSync(join(journalDir, JOURNAL_FILE), 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    const line = JSON.parse(text) as { id: string; steps?: typeof steps };
    if (line.id === id && line.steps) steps = line.steps;
  }
  return steps;
}

const stepOfCall: Record<string, string> = {
  clone: 'clone',
  uploadIso: 'upload-seed',
  setVmConfig: 'configure',
  resize: 'resize',
  start: 'start',
  stop: 'stop',
  deleteVolume: 'delete-seed',
  destroy: 'destroy',
};

let disk: SmallDisk | undefined;
let env: Env | undefined;
let app: ComposedApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  await env?.close();
  env = undefined;
  disk?.unmount();
  disk = undefined;
});

describe.skipIf(missing !== undefined)('the data folder on a small disk', () => {
  it('disk full mid-create: no request after the failed write, the task fails saying so, the app restarts read-only, Resume converges', async () => {
    disk = mountSmallDisk(1024);
    const journalDir = join(disk.dir, 'tasks');
    // The running steps on disk as each request left (two at once: the seed goes up beside the clone).
    const calls: { method: string; running: string[] }[] = [];
    let taskId = '';
    let filled = false;
    env = await startEnv({}, {}, (method) => {
      if (!taskId) return;
      calls.push({
        method,
        running: journalled(journalDir, taskId)
          .filter((s) => s.state === 'running')
          .map((s) => s.name),
      });
      // The disk fills up as the seed upload goes out, mid-create.
      if (method === 'uploadIso' && !filled) {
        filled = true;
        disk!.fill([join(journalDir, JOURNAL_FILE)]);
      }
    });
    await env.manager.close();
    env.manager = env.open({ journalDir });
    const { sim } = env.t;

    const { taskIds } = await env.manager.createProxies(createInput('proxy-full'));
    taskId = taskIds[0]!;
    const failed = await env.manager.wait(taskId);
    const sentAtFailure = sim.requests.total;
    expect(failed).toMatchObject({
      state: 'failed',
      error: {
        kind: 'transient',
        message: expect.stringMatching(DISK_FULL),
        hint: `Free space in ${journalDir} (the disk it is on is full), then try again.`,
      },
    });
    expect(failed.actions).toEqual(['retry', 'clean-up']);

    // Every step request that left was on disk as running first; the one after the failed write never left.
    const stepCalls = calls.filter((c) => stepOfCall[c.method]);
    expect(stepCalls.map((c) => c.method)).toEqual(['clone', 'uploadIso']);
    for (const c of stepCalls) expect(c.running, c.method).toContain(stepOfCall[c.method]);
    // After the upload (whose answer could not be recorded): no status poll, no next step; only the log view's last
    // read of the clone's finished task, if it was still due.
    const afterUpload = calls.slice(calls.findIndex((c) => c.method === 'uploadIso') + 1).map((c) => c.method);
    expect(afterUpload.filter((m) => m !== 'taskLog')).toEqual([]);
    // Nothing reaches the simulator afterwards but a last read of a finished step's task log (the log view's).
    await sleep(500);
    const after = sim.requests.records.slice(sentAtFailure);
    for (const r of after) expect(`${r.method} ${r.route}`).toBe('GET /nodes/{node}/tasks/{upid}/log');
    console.log(`[disk full] requests before the failed write: ${sentAtFailure}; after it: ${after.length} (task-log reads only)`);

    // A fresh start on the still-full disk: it starts, lists the task as interrupted, and refuses new work.
    await env.manager.close();
    env.manager = env.open({ journalDir });
    const listed = env.manager.get(taskId);
    expect(listed).toMatchObject({ state: 'interrupted', actions: ['resume', 'clean-up'] });
    const before = sim.requests.total;
    await expect(env.manager.createProxies(createInput('proxy-more'))).rejects.toMatchObject({
      kind: 'transient',
      message: expect.stringMatching(/^The task was not started: .*could not record progress: disk full/),
      hint: expect.stringMatching(/^Free space in /),
    });
    expect(() => env!.manager.resume(taskId)).toThrow(DISK_FULL);
    expect(sim.requests.total).toBe(before);
    expect(env.manager.list().map((t) => t.id)).toEqual([taskId]);

    // Space is back: Resume finishes the same proxy (same UID), on the VM the first attempt cloned.
    disk.free();
    env.manager.resume(taskId);
    expect(await env.manager.wait(taskId)).toMatchObject({ state: 'succeeded' });
    const vms = [...sim.state.vms.values()].filter((vm) => vm.config.name === 'proxy-full');
    expect(vms.map((vm) => vm.power)).toEqual(['running']);
    expect(parseMark(String(vms[0]!.config.description)).managed).toBe(true);
    expect(sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-full-seed.iso')).toBeDefined();
    expect([...sim.state.vms.values()].filter((vm) => vm.config.name === 'proxy-more')).toEqual([]);
  });

  it('disk full mid-delete: stops before the destroy, then Resume after a restart deletes VM and seed', async () => {
    disk = mountSmallDisk(1024);
    const journalDir = join(disk.dir, 'tasks');
    let taskId = '';
    // The running steps on disk as each request left (two at once: the seed goes up beside the clone).
    const calls: { method: string; running: string[] }[] = [];
    env = await startEnv({}, {}, (method) => {
      if (!taskId) return;
      calls.push({
        method,
        running: journalled(journalDir, taskId)
          .filter((s) => s.state === 'running')
          .map((s) => s.name),
      });
      if (method === 'deleteVolume' && calls.filter((c) => c.method === 'deleteVolume').length === 1)
        disk!.fill([join(journalDir, JOURNAL_FILE)]);
    });
    await env.manager.close();
    env.manager = env.open({ journalDir });
    const { sim } = env.t;
    const made = await env.manager.createProxies(createInput('proxy-doomed'));
    expect(await env.manager.wait(made.taskIds[0]!)).toMatchObject({ state: 'succeeded' });
    const vm = [...sim.state.vms.values()].find((v) => v.config.name === 'proxy-doomed')!;

    ({
      taskIds: [taskId = ''],
    } = await env.manager.deleteProxies('sim', [`vms/${vm.vmid}/proxy-doomed`]));
    const failed = await env.manager.wait(taskId);
    expect(failed).toMatchObject({ state: 'failed', error: { kind: 'transient', message: expect.stringMatching(DISK_FULL) } });
    const stepCalls = calls.filter((c) => stepOfCall[c.method]);
    expect(stepCalls.map((c) => c.method)).toEqual(['stop', 'deleteVolume']);
    for (const c of stepCalls) expect(c.running, c.method).toContain(stepOfCall[c.method]);
    expect(sim.state.vm(vm.vmid)).toBeDefined();

    await env.manager.close();
    disk.free();
    env.manager = env.open({ journalDir });
    expect(env.manager.get(taskId)).toMatchObject({ state: 'interrupted' });
    env.manager.resume(taskId);
    expect(await env.manager.wait(taskId)).toMatchObject({ state: 'succeeded' });
    expect(sim.state.vm(vm.vmid)).toBeUndefined();
    expect(sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-doomed-seed.iso')).toBeUndefined();
  });

  it('a write the full disk cuts short leaves no piece of its line: the next write, once there is space, starts clean', () => {
    disk = mountSmallDisk(256);
    const journalDir = join(disk.dir, 'tasks');
    const logger = createMemoryLogger();
    const record = (id: string) => ({
      id,
      kind: 'doctor' as const,
      clusterId: 'sim',
      target: 'Sim',
      state: 'running' as const,
      progress: 0,
      steps: [{ name: 'doctor', state: 'running' as const }],
      upids: [],
      createdAt: new Date().toISOString(),
      attempts: 1,
      input: { kind: 'doctor' as const },
    });
    const { journal } = Journal.open(journalDir, logger, () => []);
    journal.write('t-1', record('t-1'));
    const path = join(journalDir, JOURNAL_FILE);
    disk.fill([path], 40);
    const size = statSync(path).size;
    expect(() => journal.write('t-2', { ...record('t-2'), message: 'x'.repeat(200) })).toThrow(DISK_FULL);
    // 40 bytes of it went in before the disk refused the rest: they were cut off again.
    expect(statSync(path).size).toBe(size);
    disk.free();
    journal.write('t-3', record('t-3'));
    journal.close();
    const again = Journal.open(journalDir, logger, (tasks) => [...tasks.values()]);
    expect(again.tasks.map((t) => t.id)).toEqual(['t-1', 't-3']);
    expect(again.journal.notices()).toEqual([]);
    again.journal.close();
  });

  it('a disk full before the first create: the sealing key is written whole or not at all', async () => {
    disk = mountSmallDisk(256);
    const journalDir = join(disk.dir, 'tasks');
    env = await startEnv();
    await env.manager.close();
    env.manager = env.open({ journalDir });
    disk.fill([join(journalDir, JOURNAL_FILE)]);
    await expect(env.manager.createProxies(createInput('proxy-key'))).rejects.toMatchObject({
      kind: 'transient',
      message: expect.stringMatching(DISK_FULL),
    });
    expect(readdirSync(journalDir).filter((f) => f.startsWith('tasks.key'))).toEqual([]);
    disk.free();
    const { taskIds } = await env.manager.createProxies(createInput('proxy-key'));
    expect(await env.manager.wait(taskIds[0]!)).toMatchObject({ state: 'succeeded' });
  });

  it('a read-only data folder: the task manager starts, lists its tasks, refuses new ones with the reason, and works once writable', async () => {
    disk = mountSmallDisk(1024);
    const journalDir = join(disk.dir, 'tasks');
    env = await startEnv();
    await env.manager.close();
    env.manager = env.open({ journalDir });
    const { sim } = env.t;
    const first = await env.manager.createProxies(createInput('proxy-ro-1'));
    expect(await env.manager.wait(first.taskIds[0]!)).toMatchObject({ state: 'succeeded' });
    await env.manager.close();

    disk.readOnly();
    env.manager = env.open({ journalDir });
    expect(env.manager.list().map((t) => [t.target, t.state])).toEqual([['proxy-ro-1', 'succeeded']]);
    const before = sim.requests.total;
    await expect(env.manager.createProxies(createInput('proxy-ro-2'))).rejects.toMatchObject({
      kind: 'permanent',
      message: expect.stringMatching(READ_ONLY),
      hint: expect.stringMatching(/^Make .* writable again/),
    });
    expect(sim.requests.total).toBe(before);
    expect(env.manager.list()).toHaveLength(1);

    disk.writable();
    const second = await env.manager.createProxies(createInput('proxy-ro-2'));
    expect(await env.manager.wait(second.taskIds[0]!)).toMatchObject({ state: 'succeeded' });
    expect([...sim.state.vms.values()].filter((vm) => /^proxy-ro-/.test(String(vm.config.name))).map((vm) => vm.config.name)).toEqual([
      'proxy-ro-1',
      'proxy-ro-2',
    ]);
  });

  it('the whole app starts on a full disk and on a read-only one: views answer, tasks are refused with the reason', async () => {
    disk = mountSmallDisk(2048);
    env = await startEnv();
    const { sim } = env.t;
    const dataDir = join(disk.dir, 'egress-desk');
    const ctx = { signal: new AbortController().signal, transport: 'test' };
    const open = () => {
      app = composeApp({
        mode: 'browser',
        version: '0',
        runtime: nodeRuntime(),
        logger: createMemoryLogger(),
        dataDir,
        demo: 'off',
      });
      return async <T>(channel: string, input: unknown = {}) =>
        (await app!.router.dispatch(channel, input, ctx)) as
          { ok: true; value: T } | { ok: false; error: { kind: string; message: string; hint: string } };
    };
    let call = open();
    const tokenId = sim.tokens.admin!.tokenId;
    const saved = await call<{ id: string }>('profiles.save', {
      profile: simProfile(sim, tokenId, {
        token: { secretStorage: 'plaintext', tokenId },
        machineTypes: { medium: { cores: 1, memoryMiB: 1024 } },
      }),
      secret: sim.tokens.admin!.secret,
    });
    if (!saved.ok) throw new Error(saved.error.message);
    const clusterId = saved.value.id;
    const made = await call<{ taskIds: string[] }>('tasks.createProxies', { ...createInput('proxy-app'), clusterId });
    if (!made.ok) throw new Error(made.error.message);
    for (let i = 0; i < 400; i++) {
      const got = await call<{ state: string }>('tasks.get', { id: made.value.taskIds[0] });
      if (got.ok && got.value.state === 'succeeded') break;
      await sleep(25);
    }
    await app!.dispose();
    app = undefined;

    for (const fault of ['full', 'read-only'] as const) {
      if (fault === 'full') disk.fill([join(dataDir, 'tasks', JOURNAL_FILE), join(dataDir, 'profiles.json')]);
      else {
        disk.free();
        disk.readOnly();
      }
      call = open();
      const profiles = await call<{ profiles: { id: string }[] }>('profiles.list');
      expect(profiles.ok && profiles.value.profiles.map((p) => p.id), fault).toEqual([clusterId]);
      const tasks = await call<{ tasks: { target: string; state: string }[]; notices?: string[] }>('tasks.list');
      expect(tasks.ok, fault).toBe(true);
      if (!tasks.ok) continue;
      expect(tasks.value.tasks.map((t) => [t.target, t.state])).toEqual([['proxy-app', 'succeeded']]);
      const inventory = await call('inventory.snapshot', { clusterId });
      expect(inventory.ok, fault).toBe(true);
      const refused = await call('tasks.createProxies', { ...createInput('proxy-refused'), clusterId });
      expect(refused.ok, fault).toBe(false);
      if (!refused.ok) expect(refused.error.message).toMatch(fault === 'full' ? DISK_FULL : READ_ONLY);
      // Said in the tasks snapshot too, so the Tasks view can show why.
      const again = await call<{ notices?: string[] }>('tasks.list');
      expect(again.ok && again.value.notices?.join('\n'), fault).toMatch(fault === 'full' ? DISK_FULL : READ_ONLY);
      await app!.dispose();
      app = undefined;
    }
    disk.writable();
  });
});
