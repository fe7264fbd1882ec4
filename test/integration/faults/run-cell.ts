/**
 * Arms one fault for one operation, runs the operation as the user would,
 * takes the fault away and retries, and checks the cluster afterwards:
 * no unmarked VM, no duplicate name, no seed without its VM.
 */
import { expect } from 'vitest';
import type { NodeCheck } from '../../../main/core';
import { parseMark } from '../../../main/core/provider/rules/mark';
import { internalErrorValue, toAppErrorValue } from '../../../main/errors/app-error';
import type { RequestFault, RequestMatch } from '../../../main/simulator';
import { SEED_STORAGE } from '../../../main/simulator';
import type { AppErrorValue } from '../../../shared/errors';
import { BYSTANDER, CLUSTER_ID, freshRequest, idOf, NODE, ORPHAN_SEED, plantProxy, TARGET, type Cell } from './cell';
import type { FaultId, Operation } from './matrix';

export interface Observed {
  error?: AppErrorValue;
  checks?: NodeCheck[];
  listed?: string[];
  problems?: string[];
  cancelMessage?: string;
}

/** What each request-level fault makes the simulator answer (the day-two cells use the same table). */
export const requestFaults: Partial<Record<FaultId, RequestFault>> = {
  auth: { kind: 'error', fixture: 'err_auth_failed' },
  forbidden: { kind: 'error', fixture: 'err_forbidden' },
  unknown500: { kind: 'error', fixture: 'sim_err_task_missing' },
  refused595: { kind: 'unreachable', status: 595 },
  timeout596: { kind: 'unreachable', status: 596 },
  reset: { kind: 'reset' },
  hang: { kind: 'hang' },
  // A length over every bound, announced: refused before a byte is read (the endless stream itself, unannounced, is
  // test/integration/client/answer-size.test.ts, where the bound is read up to; here the request timeout is 600 ms).
  oversize: { kind: 'endless', declaredBytes: 1024 * 1024 * 1024 },
};

const requestSite: Record<Operation, RequestMatch> = {
  create: { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
  delete: { method: 'DELETE', route: '/nodes/{node}/qemu/{vmid}' },
  get: { method: 'GET', route: '/nodes/{node}/qemu/{vmid}/config', vmid: TARGET.vmid },
  list: { route: '/cluster/resources' },
  check: { route: '/nodes/{node}/status' },
  cleanup: { route: '/cluster/resources' },
};

const seedStorageSite: Partial<Record<Operation, RequestMatch>> = {
  create: { route: '/nodes/{node}/storage/{storage}/upload' },
  delete: { method: 'DELETE', route: '/nodes/{node}/storage/{storage}/content/{volume}' },
  check: { route: '/nodes/{node}/storage/{storage}/status' },
  cleanup: { method: 'GET', route: '/nodes/{node}/storage/{storage}/content' },
};

const taskOf = { create: 'qmstart', delete: 'qmdestroy', cleanup: 'imgdel' } as const;
const hungTaskOf = { create: 'qmstart', delete: 'qmstop', cleanup: 'imgdel' } as const;

const vmNamed = (cell: Cell, name: string) => [...cell.sim.state.vms.values()].filter((vm) => vm.config.name === name);

/** Sets the fault up in the simulator (or on the API hook) before the operation runs. */
export function arm(cell: Cell, op: Operation, fault: FaultId, request: ReturnType<typeof freshRequest>): void {
  const { sim } = cell;
  const requestFault = requestFaults[fault];
  if (requestFault) {
    sim.faults.inject(requestSite[op], requestFault);
    return;
  }
  switch (fault) {
    case 'taskError':
      sim.faults.failTask({ type: taskOf[op as keyof typeof taskOf] }, 'task_status_stopped_error');
      return;
    case 'taskHang':
      sim.faults.hangTask({ type: hungTaskOf[op as keyof typeof hungTaskOf] }, 1);
      return;
    case 'lockHeld':
      // A create an earlier attempt left stopped, under a lock nothing will clear.
      if (op === 'create') plantProxy(sim, { vmid: 150_003, name: request.name, uid: request.uid }, 'stopped');
      sim.faults.holdLock(op === 'create' ? 150_003 : op === 'list' || op === 'cleanup' ? BYSTANDER.vmid : TARGET.vmid);
      return;
    case 'vanish':
      cell.setHook(vanishHook(cell, op));
      return;
    case 'noSeedStorage':
      sim.faults.inject(seedStorageSite[op]!, { kind: 'error', fixture: 'storage_status_missing' });
      return;
    case 'nodeDown':
      sim.faults.nodeDown(NODE);
      return;
    default:
      throw new Error(`no way to arm ${fault} for ${op}`);
  }
}

const freshName = freshRequest().name;

/** The VM goes away right after the operation first found it. */
function vanishHook(cell: Cell, op: Operation) {
  let fired = false;
  const vanish = (vmid: number | undefined) => {
    if (fired || vmid === undefined) return;
    fired = true;
    cell.sim.state.removeVm(vmid);
  };
  return (method: string, args: unknown[]) => {
    // create: at its configure step, the first call after the clone that names the VM (the seed's upload runs beside
    // the clone, seed-beside-clone.ts, so it may go out before the VM exists).
    if (op === 'create' && method === 'setVmConfig') vanish(vmNamed(cell, freshName)[0]?.vmid);
    if (op !== 'create' && method === 'vmConfig' && args[1] === TARGET.vmid) vanish(TARGET.vmid);
  };
}

/** Takes every fault away: what an admin's fix, or time, does before the retry. */
export function disarm(cell: Cell): void {
  const { sim } = cell;
  sim.faults.clear();
  cell.setHook(undefined);
  sim.faults.nodeUp(NODE);
  for (const vm of sim.state.vms.values()) if (vm.lock && !vm.lockTask && vm.lock !== 'suspended') sim.faults.releaseLock(vm.vmid);
}

const userView = (e: unknown): AppErrorValue => toAppErrorValue(e) ?? internalErrorValue;

async function cleanupRun(cell: Cell, onTaskStarted?: (taskId: string) => Promise<void>): Promise<Observed> {
  let report;
  try {
    report = await cell.cleanup.scan(CLUSTER_ID, 0);
  } catch (e) {
    return { error: userView(e) };
  }
  const problems = report.problems.map((p) => `${p.node}: ${p.message}`);
  const seeds = report.orphans.map((o) => ({ node: o.node, volid: o.volid }));
  if (seeds.length === 0) return { problems };
  const { taskId } = cell.cleanup.deleteSeeds(CLUSTER_ID, seeds, false, 0);
  await onTaskStarted?.(taskId);
  const view = await cell.tasks.wait(taskId);
  if (view.state === 'cancelled') return { cancelMessage: view.message ?? '', problems };
  if (view.state !== 'succeeded') return { error: view.error ?? internalErrorValue, problems };
  return { problems };
}

async function untilUpid(cell: Cell, taskId: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((cell.tasks.get(taskId)?.upids.length ?? 0) === 0) {
    if (Date.now() > deadline) throw new Error('the seed delete never started its Proxmox task');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 50)); // a few polls of the hung task
  cell.tasks.cancel(taskId);
}

/** Runs the operation once, as the user would, and returns what they would see. */
export async function perform(cell: Cell, op: Operation, fault: FaultId, request = freshRequest()): Promise<Observed> {
  const { provider } = cell;
  try {
    switch (op) {
      case 'create':
        await provider.create(request);
        return {};
      case 'delete':
        await provider.delete(idOf(TARGET));
        return {};
      case 'get':
        await provider.get(idOf(TARGET));
        return {};
      case 'list':
        return { listed: (await provider.listByTag()).map((i) => i.id) };
      case 'check':
        return { checks: await provider.check() };
      case 'cleanup':
        return await cleanupRun(cell, fault === 'taskHang' ? (id) => untilUpid(cell, id) : undefined);
    }
  } catch (e) {
    return { error: userView(e) };
  }
}

/** After the fault is gone, the same operation succeeds and does its job. */
export async function retryAndConfirm(cell: Cell, op: Operation, fault: FaultId, request: ReturnType<typeof freshRequest>): Promise<void> {
  const { provider, sim } = cell;
  switch (op) {
    case 'create': {
      await provider.create(request);
      const [vm, ...more] = vmNamed(cell, request.name);
      expect(more).toEqual([]);
      expect(vm?.power).toBe('running');
      expect(sim.state.iso(NODE, SEED_STORAGE, `${request.name}-seed.iso`)).toBeDefined();
      return;
    }
    case 'delete':
      await provider.delete(idOf(TARGET));
      expect(vmNamed(cell, TARGET.name)).toEqual([]);
      expect(sim.state.iso(NODE, SEED_STORAGE, `${TARGET.name}-seed.iso`)).toBeUndefined();
      return;
    case 'get':
      if (fault === 'vanish') await expect(provider.get(idOf(TARGET))).rejects.toMatchObject({ kind: 'not-found' });
      else expect((await provider.get(idOf(TARGET))).state).toBe('running');
      return;
    case 'list': {
      const ids = (await provider.listByTag()).map((i) => i.id);
      expect(ids).toContain(idOf(BYSTANDER));
      if (fault !== 'vanish') expect(ids).toContain(idOf(TARGET));
      return;
    }
    case 'check':
      expect((await provider.check()).map((c) => [c.node, c.ready, c.reason])).toEqual([[NODE, true, 'Reachable']]);
      return;
    case 'cleanup': {
      const seen = await cleanupRun(cell);
      expect(seen.error).toBeUndefined();
      expect(sim.state.iso(NODE, SEED_STORAGE, ORPHAN_SEED)).toBeUndefined();
      expect(sim.state.iso(NODE, SEED_STORAGE, `${BYSTANDER.name}-seed.iso`)).toBeDefined();
      return;
    }
  }
}

/** A VM removed behind the app's back leaves its seed: the cleanup is what reclaims it. */
export async function sweepOrphans(cell: Cell): Promise<void> {
  const seen = await cleanupRun(cell);
  expect(seen.error).toBeUndefined();
}

/** The app still answers with the same client: a cluster call and a get of a VM the fault never touched. */
export async function assertStillServes(cell: Cell): Promise<void> {
  expect((await cell.client.version()).version).toMatch(/^\d/);
  expect((await cell.provider.get(idOf(BYSTANDER))).state).toBe('running');
}

/** No VM without its mark, no duplicate name, no seed without its VM, no clone left half-made. */
export function assertClean({ sim, baseline }: Pick<Cell, 'sim' | 'baseline'>): void {
  const vms = [...sim.state.vms.values()].filter((vm) => !vm.template);
  const ours = vms.filter((vm) => !baseline.has(vm.vmid));
  for (const vm of ours) {
    expect(vm.cloning, `VM ${vm.vmid} is still a half-made clone`).toBe(false);
    expect(parseMark(String(vm.config.description ?? '')).managed, `VM ${vm.vmid} has no mark`).toBe(true);
  }
  const names = vms.map((vm) => String(vm.config.name ?? ''));
  expect(
    names.filter((n, i) => names.indexOf(n) !== i),
    'duplicate VM names',
  ).toEqual([]);
  for (const node of sim.state.nodes.values()) {
    for (const file of node.isos.get(SEED_STORAGE)?.keys() ?? []) {
      if (!file.endsWith('-seed.iso') || file === ORPHAN_SEED) continue;
      expect(names, `${file} has no VM`).toContain(file.slice(0, -'-seed.iso'.length));
    }
  }
}
