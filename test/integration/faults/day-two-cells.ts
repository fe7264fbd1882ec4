/**
 * Issue 16: the fault matrix's day-two rows (start, shutdown, stop, reboot,
 * migrate, reconfigure, recreate), run as the user runs them: a request to
 * the task manager, then the task to its end. Each cell arms one fault,
 * judges what the user sees (the refusal, or the failed task's error class
 * and hint), takes the fault away, retries (the task's Retry when it offers
 * it, else the same request again) and checks the VM ended as the
 * operation meant, once, in a clean cluster.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { internalErrorValue, toAppErrorValue } from '../../../main/errors/app-error';
import { SEED_STORAGE, type RequestMatch } from '../../../main/simulator';
import type { AppErrorValue } from '../../../shared/errors';
import { recordMadeHere } from '../../support/made-here';
import { CLUSTER_ID, NODE, plantProxy, SECOND_NODE as TARGET_NODE, startCell, type Cell } from './cell';
import { dataFolderFaults, dayTwoMatrix, dayTwoTaskType, faults, matrixVersions, type DayTwoOperation, type FaultId } from './matrix';
import { assertClean, assertStillServes, disarm, requestFaults, sweepOrphans, type Observed } from './run-cell';
import { judge } from './suite';

const USER_DATA = '#cloud-config\nhostname: subject\n';
const NEW_USER_DATA = '#cloud-config\nhostname: subject-renamed\n';
const SUBJECT = 'proxy-subject';

const site: Record<DayTwoOperation, RequestMatch> = {
  start: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/start' },
  shutdown: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/shutdown' },
  stop: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/stop' },
  reboot: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/reboot' },
  migrate: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/migrate' },
  reconfigure: { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
  recreate: { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
};
const uploadSite: RequestMatch = { method: 'POST', route: '/nodes/{node}/storage/{storage}/upload' };

interface Subject {
  vmid: number;
  uid: string;
}

const isPower = (op: DayTwoOperation): op is 'start' | 'shutdown' | 'stop' | 'reboot' =>
  ['start', 'shutdown', 'stop', 'reboot'].includes(op);

/**
 * The VM the operation acts on: planted for the power actions; made by the core (a real seed) for the others, and for
 * migrate recorded as made here: its local seed is rebuilt on the target from the app's record of it.
 */
async function subjectFor(cell: Cell, op: DayTwoOperation): Promise<Subject> {
  if (isPower(op)) {
    const vm = { vmid: 150_030, name: SUBJECT, uid: crypto.randomUUID() };
    plantProxy(cell.sim, vm, op === 'start' ? 'stopped' : 'running');
    return vm;
  }
  const uid = crypto.randomUUID();
  const id = await cell.provider.create({
    uid,
    name: SUBJECT,
    placement: { zone: NODE, machineType: 'small', image: 'debian-13' },
    cloudInit: USER_DATA,
  });
  if (op === 'migrate')
    await cell.restartTasks(() =>
      recordMadeHere(cell.journalDir, { clusterId: CLUSTER_ID, uid, template: 'debian-13', machineType: 'small' }),
    );
  return { vmid: Number(id.split('/')[1]), uid };
}

function arm(cell: Cell, op: DayTwoOperation, fault: FaultId, subject: Subject): void {
  const { sim } = cell;
  const requestFault = requestFaults[fault];
  if (requestFault) return void sim.faults.inject(site[op], requestFault);
  switch (fault) {
    case 'taskError':
      return void sim.faults.failTask({ type: dayTwoTaskType[op] }, 'task_status_stopped_error');
    case 'taskHang':
      return void sim.faults.hangTask({ type: dayTwoTaskType[op] }, 1);
    case 'lockHeld':
      return void sim.faults.holdLock(subject.vmid);
    case 'vanish': {
      // The request reads the VM's config (its identity); the task's lookup reads it again: it is gone by then.
      let reads = 0;
      cell.setHook((method, args) => {
        if (method === 'vmConfig' && args[1] === subject.vmid && ++reads === 2) sim.state.removeVm(subject.vmid);
      });
      return;
    }
    case 'noSeedStorage':
      return void sim.faults.inject(uploadSite, { kind: 'error', fixture: 'storage_status_missing' });
    case 'nodeDown':
      return void sim.faults.nodeDown(NODE);
    default:
      throw new Error(`no way to arm ${fault} for ${op}`);
  }
}

/** The request as the user makes it (the planted VMs are not this app's: the operator warning is acknowledged). */
function ask(cell: Cell, op: DayTwoOperation, subject: Subject): Promise<{ taskIds: string[] }> {
  const targets = [{ vmid: subject.vmid, name: SUBJECT }];
  const acknowledgeOperatorWarning = true as const;
  const clusterId = CLUSTER_ID;
  if (isPower(op)) return cell.tasks.power({ clusterId, targets, action: op, acknowledgeOperatorWarning });
  if (op === 'migrate')
    return cell.tasks.migrate({
      clusterId,
      targets: [{ ...targets[0]!, cloudInit: USER_DATA }],
      to: TARGET_NODE,
      acknowledgeOperatorWarning,
    });
  if (op === 'reconfigure')
    return cell.tasks.reconfigure({ clusterId, targets, machineType: 'big', cloudInit: NEW_USER_DATA, acknowledgeOperatorWarning });
  return cell.tasks.recreate({
    clusterId,
    targets: [{ ...targets[0]!, cloudInit: USER_DATA }],
    template: 'debian-13',
    machineType: 'small',
    acknowledgeOperatorWarning,
  });
}

const userView = (e: unknown): AppErrorValue => toAppErrorValue(e) ?? internalErrorValue;

/**
 * Runs the request and its task to the end; what the user sees, and the task (when one was made). With `cancelAt`,
 * the user cancels once the Proxmox task of that type runs (a hung task that holds the VM's lock).
 */
async function perform(cell: Cell, op: DayTwoOperation, subject: Subject, cancelAt?: string): Promise<Observed & { taskId?: string }> {
  let taskId: string;
  try {
    [taskId] = (await ask(cell, op, subject)).taskIds as [string];
  } catch (e) {
    return { error: userView(e) };
  }
  if (cancelAt) {
    await until(() => cell.tasks.get(taskId).steps.some((s) => s.state === 'running' && s.upid?.includes(`:${cancelAt}:`)));
    await cell.tasks.cancel(taskId);
  }
  const view = await cell.tasks.wait(taskId);
  if (view.state === 'succeeded') return { taskId };
  if (view.state === 'cancelled') return { taskId, cancelMessage: view.message ?? '' };
  return { taskId, error: view.error ?? internalErrorValue };
}

async function until(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('the task never reached its Proxmox task');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The VM as the operation meant it, once. */
function assertDone(cell: Cell, op: DayTwoOperation, subject: Subject): void {
  const vms = [...cell.sim.state.vms.values()].filter((vm) => vm.config.name === SUBJECT);
  expect(vms, 'one VM with the name').toHaveLength(1);
  const vm = vms[0]!;
  if (op === 'start' || op === 'reboot') expect(vm.power).toBe('running');
  if (op === 'shutdown' || op === 'stop') expect(vm.power).toBe('stopped');
  if (op === 'migrate') {
    expect(vm.node).toBe(TARGET_NODE);
    expect(cell.sim.state.iso(TARGET_NODE, SEED_STORAGE, `${SUBJECT}-seed.iso`)).toBeDefined();
    expect(cell.sim.state.iso(NODE, SEED_STORAGE, `${SUBJECT}-seed.iso`)).toBeUndefined();
  }
  if (op === 'reconfigure') {
    expect(String({ ...vm.config, ...(vm.pending ?? {}) }.cores)).toBe('2');
    expect(Buffer.from(cell.sim.state.iso(NODE, SEED_STORAGE, `${SUBJECT}-seed.iso`)!.bytes).toString('latin1')).toContain(
      'subject-renamed',
    );
  }
  if (op === 'recreate') {
    expect(String(vm.config.description)).not.toContain(subject.uid);
    expect(vm.power).toBe('running');
  }
}

/** After the fault is gone: Retry on the task when it offers it, else the same request again; then the VM is as meant. */
async function retryAndConfirm(cell: Cell, op: DayTwoOperation, fault: FaultId, subject: Subject, seen: Observed & { taskId?: string }) {
  if (fault === 'vanish' && op !== 'recreate') {
    // Nothing to act on any more: asked again, it is refused as gone, and nothing was made in its place.
    const again = await perform(cell, op, subject);
    expect(again.error?.message).toMatch(/gone|No VM/);
    expect([...cell.sim.state.vms.values()].filter((vm) => vm.config.name === SUBJECT)).toEqual([]);
    return;
  }
  if (!seen.error && seen.cancelMessage === undefined) return assertDone(cell, op, subject); // it succeeded despite the fault
  const task = seen.taskId ? cell.tasks.get(seen.taskId) : undefined;
  let outcome: Observed & { taskId?: string };
  if (task && task.actions.includes('retry')) {
    cell.tasks.retry(task.id);
    const view = await cell.tasks.wait(task.id);
    outcome = view.state === 'succeeded' ? {} : { error: view.error ?? internalErrorValue };
  } else outcome = await perform(cell, op, subject);
  expect(outcome.error, outcome.error?.message).toBeUndefined();
  assertDone(cell, op, subject);
}

export function dayTwoSuite(op: DayTwoOperation): void {
  let cell: Cell | undefined;
  afterEach(async () => {
    await cell?.close();
    cell = undefined;
  });

  describe.each(matrixVersions)(`fault matrix: ${op} on Proxmox VE %s`, (version) => {
    for (const { id, label } of faults) {
      const expected = dayTwoMatrix[op][id];
      if (expected.outcome === 'n/a' || expected.outcome === 'elsewhere' || dataFolderFaults.has(id)) continue;
      it(`${label}: ${expected.outcome}${'kind' in expected ? ` ${expected.kind}` : ''}`, async () => {
        cell = await startCell({ version, twoNodes: true });
        const subject = await subjectFor(cell, op);
        const baseline = new Set([...cell.sim.state.vms.keys()].filter((vmid) => vmid !== subject.vmid));
        arm(cell, op, id, subject);
        const seen = await perform(cell, op, subject, expected.outcome === 'cancelled' ? dayTwoTaskType[op] : undefined);
        judge(expected, seen);
        disarm(cell);
        await assertStillServes(cell);
        await retryAndConfirm(cell, op, id, subject, seen);
        if (id === 'vanish') await sweepOrphans(cell); // a VM removed behind the app's back leaves its seed to the cleanup
        assertClean({ sim: cell.sim, baseline });
      });
    }
  });
}
