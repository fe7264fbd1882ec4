/**
 * A corrupt journal never blocks the start. Every replayed line, and every
 * task the lines build, is checked against a schema; what fails is skipped,
 * kept byte for byte in `tasks.jsonl.corrupt` beside the journal, logged, and
 * reported in the tasks snapshot. A wholly garbage journal is kept aside, not
 * silently emptied. A last line cut short by a crash mid-write is the normal
 * case: dropped, logged at info, not reported.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { MutableClusterDirectory } from '../../../../main/services/clusters/cluster';
import { CORRUPT_SUFFIX, JOURNAL_FILE, journalNotices } from '../../../../main/services/tasks/records/journal';
import { createTaskManager, type TaskManager } from '../../../../main/services/tasks/task-manager';

const createdAt = '2026-01-02T03:04:05.000Z';
const doctorTask = (id: string) => ({
  id,
  kind: 'doctor',
  clusterId: 'sim',
  target: 'Sim',
  state: 'succeeded',
  progress: 1,
  steps: [{ name: 'doctor', state: 'done' }],
  upids: [],
  createdAt,
  startedAt: createdAt,
  endedAt: createdAt,
  attempts: 1,
  message: 'The cluster is ready for proxies.',
  input: { kind: 'doctor' },
});
const createInput = {
  kind: 'create-proxy',
  uid: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
  name: 'proxy-journal',
  node: 'pv1-1',
  template: 't9001',
  machineType: 'small',
};
const runningCreate = (id: string) => ({
  id,
  kind: 'create-proxy',
  clusterId: 'sim',
  target: 'proxy-journal',
  node: 'pv1-1',
  state: 'running',
  progress: 0.3,
  steps: ['lookup', 'clone', 'upload-seed', 'configure', 'resize', 'start', 'wait-running'].map((name, i) => ({
    name,
    state: i < 2 ? 'done' : i === 2 ? 'running' : 'pending',
  })),
  upids: [],
  createdAt,
  startedAt: createdAt,
  attempts: 1,
  input: createInput,
});
const noSteps = { ...runningCreate('t-no-steps'), steps: undefined, target: 'proxy-no-steps' };

const line = (o: unknown) => JSON.stringify(o);
const goodLines = [line(doctorTask('t-doctor')), line(runningCreate('t-create')), line({ id: 't-create', progress: 0.4 })];

let dir: string;
let manager: TaskManager | undefined;
let app: ComposedApp | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await app?.dispose();
  app = undefined;
});

function journalWith(content: string | Buffer): string {
  dir = mkdtempSync(join(tmpdir(), 'egress-journal-replay-'));
  writeFileSync(join(dir, JOURNAL_FILE), content);
  return dir;
}

function start(journalDir: string) {
  const logger = createMemoryLogger('info');
  manager = createTaskManager({ directory: new MutableClusterDirectory(), journalDir, logger, updateThrottleMs: 0 });
  const logged = () => logger.lines.map((l) => JSON.parse(l) as { level: string; msg: string; part?: string });
  return { manager, logged };
}

const corruptCopy = (journalDir: string) => join(journalDir, JOURNAL_FILE + CORRUPT_SUFFIX);

describe('a corrupt journal at start', () => {
  const variants: [string, string][] = [
    ['a line `null`', 'null'],
    ['a line `12345`', '12345'],
    ['a line `"x"`', '"x"'],
    ['a running task without steps', line(noSteps)],
    ['an array', '[1,2,3]'],
    ['a line that is not JSON', '{"id": "t-x", oops'],
    ['a task whose state is unknown', line({ ...doctorTask('t-odd'), state: 'exploded' })],
    ['a line clearing a field every task has', line({ id: 't-doctor', steps: null })],
    ['an update of a task no line created', line({ id: 't-ghost', state: 'running', progress: 0.5 })],
  ];

  it.each(variants)('%s: starts, skips it, keeps it in tasks.jsonl.corrupt and reports it', (_name, bad) => {
    const journalDir = journalWith([goodLines[0], bad, goodLines[1], goodLines[2]].join('\n') + '\n');
    const { manager: m, logged } = start(journalDir);

    // Everything readable is still there: the finished doctor, and the create the crash cut off.
    const byId = new Map(m.list().map((t) => [t.id, t]));
    expect([...byId.keys()].sort()).toEqual(['t-create', 't-doctor']);
    expect(byId.get('t-doctor')).toMatchObject({ state: 'succeeded', steps: [{ name: 'doctor', state: 'done' }] });
    expect(byId.get('t-create')).toMatchObject({ state: 'interrupted', progress: 0.4, actions: ['resume', 'clean-up'] });

    expect(readFileSync(corruptCopy(journalDir), 'utf8')).toBe(bad + '\n');
    expect(journalNotices(m.journalPath)).toEqual([
      expect.stringContaining(`1 task journal line was unreadable and kept in ${corruptCopy(journalDir)}`),
    ]);
    expect(logged()).toContainEqual(expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/unreadable lines/) }));

    // The journal was compacted without the bad line, and still takes new lines: a restart reads it whole and quietly.
    expect(readFileSync(join(journalDir, JOURNAL_FILE), 'utf8')).not.toContain(bad);
  });

  it('a wholly garbage journal is kept aside whole, not silently emptied', async () => {
    // Blank lines inside too: they are part of what is kept.
    const garbage = Buffer.concat([randomBytes(3000), Buffer.from('\n\n \n'), randomBytes(1500).map((b) => (b === 0x0a ? 0x20 : b))]);
    const journalDir = journalWith(garbage);
    const { manager: m } = start(journalDir);
    expect(m.list()).toEqual([]);
    // Byte for byte (each line with its newline): nothing of it is lost.
    const copy = readFileSync(corruptCopy(journalDir));
    expect(copy.subarray(0, garbage.length).equals(garbage)).toBe(true);
    expect(journalNotices(m.journalPath)).toEqual([
      `The task journal was unreadable as a whole (${garbage.length} bytes, not one task in it could be read) and kept in ${corruptCopy(journalDir)}; the task list starts empty.`,
    ]);
    // The app works on: a doctor task journals as usual.
    await m.close();
    const again = start(journalDir);
    expect(again.manager.list()).toEqual([]);
    expect(journalNotices(again.manager.journalPath)).toEqual([]);
  });

  it('a last line cut short by a crash mid-write is dropped, logged at info, and not reported', async () => {
    const cut = line(runningCreate('t-cut')).slice(0, 57);
    const journalDir = journalWith(goodLines.join('\n') + '\n' + cut);
    const { manager: m, logged } = start(journalDir);
    expect(
      m
        .list()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['t-create', 't-doctor']);
    expect(existsSync(corruptCopy(journalDir))).toBe(false);
    expect(journalNotices(m.journalPath)).toEqual([]);
    const about = logged().filter((l) => /cut short/.test(l.msg));
    expect(about.map((l) => l.level)).toEqual(['info']);
    expect(logged().filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    await m.close();
    // The file is whole again: the next start reads every line.
    expect(readFileSync(join(journalDir, JOURNAL_FILE), 'utf8').endsWith('\n')).toBe(true);
    const again = start(journalDir);
    expect(again.manager.list()).toHaveLength(2);
  });

  it('a second start after a corrupt one reports nothing new, and keeps the first copy', async () => {
    const journalDir = journalWith([goodLines[0], 'null', goodLines[1]].join('\n') + '\n');
    await start(journalDir).manager.close();
    const again = start(journalDir);
    expect(journalNotices(again.manager.journalPath)).toEqual([]);
    expect(readFileSync(corruptCopy(journalDir), 'utf8')).toBe('null\n');
    expect(again.manager.list()).toHaveLength(2);
  });

  it('the tasks snapshot (tasks.list) carries the report', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-journal-notice-'));
    mkdirSync(join(dataDir, 'tasks'));
    writeFileSync(join(dataDir, 'tasks', JOURNAL_FILE), [goodLines[0], '12345', '"x"'].join('\n') + '\n');
    app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo: 'off' });
    const answer = (await app.router.dispatch('tasks.list', {}, { signal: new AbortController().signal, transport: 'test' })) as {
      ok: boolean;
      value: { tasks: { id: string }[]; notices?: string[] };
    };
    expect(answer.ok).toBe(true);
    expect(answer.value.tasks.map((t) => t.id)).toEqual(['t-doctor']);
    expect(answer.value.notices).toEqual([
      expect.stringContaining(`2 task journal lines were unreadable and kept in ${join(dataDir, 'tasks', JOURNAL_FILE + CORRUPT_SUFFIX)}`),
    ]);
  });
});
