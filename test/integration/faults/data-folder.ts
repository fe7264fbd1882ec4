/**
 * The data-folder rows of the fault matrix: the app's own disk, not
 * Proxmox, fails. Create, delete and cleanup run as the user starts them, as
 * tasks, with the journal on a real small disk (a tmpfs) that fills up or is
 * read-only, or with a journal a crash or a bad disk left corrupt; the reads
 * run beside the same fault. What the user sees is returned for the matrix's
 * judge; what must hold of the journal and the requests is checked here.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { internalErrorValue, toAppErrorValue } from '../../../main/errors/app-error';
import { CORRUPT_SUFFIX, JOURNAL_FILE, journalNotices } from '../../../main/services/tasks/records/journal';
import { createFileKeySealer } from '../../../main/services/tasks/sealer';
import { SEED_STORAGE } from '../../../main/simulator';
import type { AppErrorValue } from '../../../shared/errors';
import type { SmallDisk } from '../../support/small-disk';
import { CLUSTER_ID, idOf, NODE, ORPHAN_SEED, TARGET, type Cell, type freshRequest } from './cell';
import type { FaultId, Operation } from './matrix';
import { perform as performRead, type Observed } from './run-cell';

export type DataFolderFault = Extract<FaultId, 'diskFull' | 'readOnly' | 'corruptJournal'>;
type Request = ReturnType<typeof freshRequest>;

/** Which step each request belongs to: it must be journalled as running before the request leaves. */
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
/** The request mid-operation as which the disk fills up. */
const fillAt: Partial<Record<Operation, string>> = { create: 'uploadIso', delete: 'deleteVolume' };

/** A finished task beside the bad lines: it must still be listed after the start that skips them. */
const FINISHED = {
  id: 'kept-doctor-run',
  kind: 'doctor',
  clusterId: CLUSTER_ID,
  target: 'Fault matrix',
  state: 'succeeded',
  progress: 1,
  steps: [{ name: 'doctor', state: 'done' }],
  upids: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  attempts: 1,
  input: { kind: 'doctor' },
};
const BAD_LINES = [
  Buffer.from('null'),
  Buffer.from('12345'),
  Buffer.from('"x"'),
  Buffer.from(JSON.stringify({ ...FINISHED, id: 'running-without-steps', kind: 'delete-proxy', state: 'running', steps: undefined })),
  randomBytes(600).map((b) => (b === 0x0a ? 0x20 : b)),
];

export interface Run {
  /**
   * Every API call the cell's client made from arming on, with the steps the journal on disk showed running then
   * (two at once when a create's seed goes up beside its clone, seed-beside-clone.ts).
   */
  calls: { method: string; running: string[] }[];
  /** Index into `calls` from which nothing but reads of a finished task's log may follow (the failed write or the refusal). */
  stoppedAt?: number;
  taskId?: string;
}

function journalPath(cell: Cell): string {
  return join(cell.journalDir, JOURNAL_FILE);
}

/** The running steps of a task as the journal on disk shows them (read by another handle: what a crash would leave). */
function runningOnDisk(cell: Cell, taskId: string | undefined): string[] {
  if (!taskId) return [];
  let steps: { name: string; state: string }[] = [];
  for (const text of readFileSync(journalPath(cell), 'utf8').split('\n')) {
    if (!text.startsWith('{')) continue;
    const line = JSON.parse(text) as { id: string; steps?: typeof steps };
    if (line.id === taskId && line.steps) steps = line.steps;
  }
  return steps.filter((s) => s.state === 'running').map((s) => s.name);
}

/** Sets the fault up. Disk full mid-operation fills the disk from the hook, as the operation's request goes out. */
export async function armDataFolder(cell: Cell, op: Operation, fault: DataFolderFault, disk: SmallDisk): Promise<Run> {
  const run: Run = { calls: [] };
  let filled = false;
  cell.setHook((method) => {
    run.calls.push({ method, running: runningOnDisk(cell, run.taskId) });
    if (fault === 'diskFull' && !filled && method === fillAt[op]) {
      filled = true;
      disk.fill([journalPath(cell)]);
      run.stoppedAt = run.calls.length;
    }
  });
  // The key that seals cloud-init texts exists from an earlier create, as on any machine that has made a proxy.
  await createFileKeySealer(cell.journalDir).seal('');
  switch (fault) {
    case 'diskFull':
      if (!fillAt[op]) disk.fill([journalPath(cell)]);
      return run;
    case 'readOnly':
      await cell.restartTasks(() => disk.readOnly());
      return run;
    case 'corruptJournal':
      await cell.restartTasks(() => {
        appendFileSync(
          journalPath(cell),
          JSON.stringify(FINISHED) + '\n' + BAD_LINES.map((b) => b.toString('latin1')).join('\n') + '\n',
          'latin1',
        );
      });
      return run;
  }
}

const userView = (e: unknown): AppErrorValue => toAppErrorValue(e) ?? internalErrorValue;

async function settle(cell: Cell, run: Run, taskId: string): Promise<Observed> {
  run.taskId = taskId;
  const view = await cell.tasks.wait(taskId);
  return view.state === 'succeeded' ? {} : { error: view.error ?? internalErrorValue };
}

/** Runs the operation as the user would (create, delete and cleanup as tasks) and returns what they would see. */
export async function performDataFolder(cell: Cell, op: Operation, run: Run, request: Request): Promise<Observed> {
  try {
    switch (op) {
      case 'create': {
        const started = await cell.tasks.createProxies({
          clusterId: CLUSTER_ID,
          node: NODE,
          template: request.placement.image,
          machineType: request.placement.machineType,
          name: request.name,
          count: 1,
          cloudInit: request.cloudInit,
        });
        return await settle(cell, run, started.taskIds[0]!);
      }
      case 'delete': {
        // TARGET is planted, not made by this app: the operator warning is acknowledged.
        const started = await cell.tasks.deleteProxies(CLUSTER_ID, [idOf(TARGET)], true);
        return await settle(cell, run, started.taskIds[0]!);
      }
      case 'cleanup': {
        const report = await cell.cleanup.scan(CLUSTER_ID, 0);
        const seeds = report.orphans.map((o) => ({ node: o.node, volid: o.volid }));
        let taskId: string;
        try {
          ({ taskId } = cell.cleanup.deleteSeeds(CLUSTER_ID, seeds, false, 0));
        } catch (e) {
          run.stoppedAt = run.calls.length;
          throw e;
        }
        return await settle(cell, run, taskId);
      }
      default:
        return await performRead(cell, op, 'diskFull');
    }
  } catch (e) {
    // A task refused before it started: nothing may follow the refusal.
    run.stoppedAt ??= run.calls.length;
    return { error: userView(e) };
  }
}

/** What must hold right after the fault: no request after the failed write or the refusal, every step journalled first. */
export async function checkRequests(op: Operation, run: Run): Promise<void> {
  await new Promise((r) => setTimeout(r, 200)); // anything still scheduled would have sent its request by now
  // Create and delete journal each step before its request (the seed cleanup re-checks each seed instead).
  if (op === 'create' || op === 'delete')
    for (const c of run.calls)
      if (stepOfCall[c.method] && run.taskId) expect(c.running, `${c.method} left unjournalled`).toContain(stepOfCall[c.method]);
  if (run.stoppedAt === undefined) return;
  const after = run.calls.slice(run.stoppedAt).map((c) => c.method);
  expect(
    after.filter((m) => m !== 'taskLog'),
    'requests after the journal could not be written',
  ).toEqual([]);
}

/** The corrupt journal: the bad lines kept byte for byte, reported, and the finished task beside them still listed. */
export function checkCorruptJournalKept(cell: Cell): void {
  const kept = readFileSync(journalPath(cell) + CORRUPT_SUFFIX);
  expect(kept.equals(Buffer.concat(BAD_LINES.flatMap((b) => [Buffer.from(b.toString('latin1'), 'latin1'), Buffer.from('\n')])))).toBe(true);
  expect(journalNotices(cell.tasks.journalPath)).toEqual([
    expect.stringContaining(`${BAD_LINES.length} task journal lines were unreadable and kept in ${journalPath(cell)}${CORRUPT_SUFFIX}`),
  ]);
  expect(cell.tasks.list().filter((t) => t.id === FINISHED.id)).toHaveLength(1);
}

/**
 * The fault is gone: the same operation, taken up again the way the user would, succeeds and does its job. A task
 * the full disk stopped is still in the journal: the restarted task manager lists it, once, as interrupted, and
 * Resume finishes it. A refused one (read-only) is asked for again. One that succeeded is checked for its job.
 */
export async function retryDataFolder(cell: Cell, op: Operation, fault: DataFolderFault, run: Run, seen: Observed, request: Request) {
  const { sim } = cell;
  if (seen.error && run.taskId && (op === 'create' || op === 'delete')) {
    await cell.restartTasks();
    const same = cell.tasks.list().filter((t) => t.id === run.taskId);
    expect(same.map((t) => t.state)).toEqual(['interrupted']);
    cell.tasks.resume(run.taskId);
    expect(await cell.tasks.wait(run.taskId)).toMatchObject({ state: 'succeeded' });
  } else if (seen.error) {
    const again = await performDataFolder(cell, op, { calls: [] }, request);
    expect(again.error).toBeUndefined();
  } else if (op === 'get' || op === 'list' || op === 'check') {
    const again = await performRead(cell, op, fault);
    expect(again.error).toBeUndefined();
  }
  switch (op) {
    case 'create': {
      const vms = [...sim.state.vms.values()].filter((vm) => vm.config.name === request.name);
      expect(vms.map((vm) => vm.power)).toEqual(['running']);
      expect(sim.state.iso(NODE, SEED_STORAGE, `${request.name}-seed.iso`)).toBeDefined();
      expect(cell.tasks.list().filter((t) => t.target === request.name && t.state === 'succeeded')).toHaveLength(1);
      return;
    }
    case 'delete':
      expect([...sim.state.vms.values()].filter((vm) => vm.config.name === TARGET.name)).toEqual([]);
      expect(sim.state.iso(NODE, SEED_STORAGE, `${TARGET.name}-seed.iso`)).toBeUndefined();
      return;
    case 'cleanup':
      expect(sim.state.iso(NODE, SEED_STORAGE, ORPHAN_SEED)).toBeUndefined();
      return;
    default:
      return;
  }
}
