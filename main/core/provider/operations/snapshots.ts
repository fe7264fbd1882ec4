/**
 * Issue 25, the foundation of "a snapshot before a change": can this proxy's VM snapshot, its snapshots (the
 * app's and others'), and create, roll back and delete the app's own, each through the one task step.
 *
 * Two layers, so a later change (reconfigure, migrate, rotate) can take its snapshot inside its own per-name lock:
 * - `…At` functions act on a VM already found (node and VMID) and report to the caller's reporter; they take no lock.
 * - `snapshotSupport`, `listSnapshots`, `createSnapshot`, `rollbackSnapshot`, `deleteSnapshot` take the provider
 *   ID, hold the per-name lock for writes, check the VM is the one meant (the mark, the name, the UID when given)
 *   and classify every failure.
 *
 * Proxmox's words and rules (sources in rules/snapshots.ts and the simulator's routes/vm-snapshot.ts): the task's
 * "snapshot feature is not available" (permanent: a disk cannot), "snapshot name '…' already used" (permanent),
 * "VM is locked (…)" (transient), "snapshot '…' does not exist" (not found). Only the app's own snapshots (by name,
 * rules/snapshots.ts ownSnapshot) may be rolled back or deleted here; others are listed read-only. A rollback keeps
 * the VM's current description (AbstractConfig.pm __snapshot_apply_config), so the mark survives it; it stops a
 * running VM first (QemuConfig.pm __snapshot_rollback_vm_stop) and starts it again only when asked (`start`).
 */
import { snapshotApiOf, type SnapshotApi } from '../../pve/snapshot-api';
import type { CallOptions, CoreContext } from '../calls/context';
import { stepReporter, type StepReporter } from '../calls/progress';
import { runTaskStep } from '../calls/task-step';
import type { Wanted } from '../cluster/ownership';
import { resolveVm } from '../cluster/resources';
import { goneError, readConfigOrGone, refuseIfNotTheOne } from '../cluster/vm-lookup';
import { toProviderError } from '../rules/classify';
import { ProviderError, type SnapshotOp } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import {
  diskVerdict,
  ownSnapshot,
  snapshotDescription,
  snapshotDrives,
  snapshotName,
  unsupportedWords,
  type DiskSnapshotVerdict,
  type SnapshotKind,
} from '../rules/snapshots';
import { refuseIfNotOurs, SNAPSHOT_CODES, taskRefusal } from '../rules/snapshot-refusals';

export { SNAPSHOT_CODES } from '../rules/snapshot-refusals';

export const snapshotSteps = ['lookup', 'snapshot', 'rollback', 'delete-snapshot'] as const;
export type SnapshotStep = (typeof snapshotSteps)[number];

export interface SnapshotOptions extends CallOptions {
  /** The UID in the mark the caller saw. */
  expect?: { uid: string };
}

export interface SnapshotSupport {
  node: string;
  vmid: number;
  possible: boolean;
  disks: DiskSnapshotVerdict[];
  /** "every disk can be snapshotted", or the disks that cannot, named with their storage. */
  message: string;
}

export interface VmSnapshot {
  name: string;
  /** Taken by Egress Desk (its name's shape): rollback and delete are offered for these only. */
  ours: boolean;
  kind?: SnapshotKind;
  /** Proxmox's snaptime. */
  takenAt?: Date;
  description: string;
  parent?: string;
  /** Saved with RAM (a rollback starts the VM from it). */
  withRam: boolean;
  /** `prepare` or `delete` while a task works on it (or after one died half-way). */
  state?: string;
}

export interface SnapshotListing {
  node: string;
  vmid: number;
  /** Oldest first. */
  snapshots: VmSnapshot[];
  /** The snapshot the current state descends from. */
  currentParent?: string;
}

export interface SnapshotResult {
  node: string;
  vmid: number;
  name: string;
  message: string;
}

interface At {
  node: string;
  vmid: number;
}

function apiOf(ctx: CoreContext): SnapshotApi {
  const api = snapshotApiOf(ctx.api);
  if (!api)
    throw new ProviderError('permanent', 'This Proxmox connection cannot handle snapshots.', undefined, undefined, 'Update Egress Desk.');
  return api;
}

/** Whether every disk of a VM found can snapshot (reads its config and its node's storages). */
export async function snapshotSupportAt(ctx: CoreContext, at: At, signal?: AbortSignal): Promise<SnapshotSupport> {
  const config = await readConfigOrGone(ctx, at.node, at.vmid, signal);
  const storages = await ctx.api.storageList(at.node, { signal });
  const types = new Map(storages.map((s) => [s.storage, s.type]));
  const disks = snapshotDrives(config).map(([slot, volid]) => diskVerdict(slot, volid, types));
  const refusal =
    config.template === '1' ? `VM ${at.vmid} is a template: Proxmox does not snapshot templates.` : unsupportedWords(at.vmid, disks);
  return { ...at, possible: !refusal, disks, message: refusal ?? `Every disk of VM ${at.vmid} can be snapshotted.` };
}

/** The snapshots of a VM found, oldest first, the app's recognised by name. */
export async function listSnapshotsAt(ctx: CoreContext, at: At, signal?: AbortSignal): Promise<SnapshotListing> {
  const entries = await apiOf(ctx).snapshots(at.node, at.vmid, { signal });
  const current = entries.find((e) => e.name === 'current');
  const snapshots = entries
    .filter((e) => e.name !== 'current')
    .map((e): VmSnapshot => {
      const own = ownSnapshot(e.name);
      const s: VmSnapshot = { name: e.name, ours: own !== undefined, description: e.description ?? '', withRam: e.vmstate === true };
      if (own) s.kind = own.kind;
      if (e.snaptime) s.takenAt = new Date(e.snaptime * 1000);
      if (e.parent) s.parent = e.parent;
      if (e.snapstate) s.state = e.snapstate;
      return s;
    })
    .sort((a, b) => (a.takenAt?.getTime() ?? 0) - (b.takenAt?.getTime() ?? 0) || a.name.localeCompare(b.name));
  return { ...at, snapshots, ...(current?.parent ? { currentParent: current.parent } : {}) };
}

export interface SnapshotPlan {
  kind: SnapshotKind;
  /** What change it is kept for, in words: its description. */
  change: string;
  /** The name to use (a resumed step's recorded one); default snapshotName(kind, ctx.now()). */
  name?: string;
}

/** Takes the app's snapshot of a VM found, refusing first (in words, nothing sent) when a disk cannot. */
export async function createSnapshotAt(
  ctx: CoreContext,
  at: At,
  plan: SnapshotPlan,
  report: StepReporter<SnapshotStep>,
  signal?: AbortSignal,
): Promise<SnapshotResult> {
  const name = plan.name ?? snapshotName(plan.kind, ctx.now());
  const support = await snapshotSupportAt(ctx, at, signal);
  if (!support.possible)
    throw new ProviderError(
      'permanent',
      `${support.message} Nothing was sent.`,
      undefined,
      undefined,
      'Go on without a snapshot, or move the disk named to LVM-thin, ZFS, Ceph RBD or a qcow2 image.',
      SNAPSHOT_CODES.unsupported,
    );
  const description = snapshotDescription(plan.kind, plan.change);
  const submit = () => apiOf(ctx).createSnapshot(at.node, at.vmid, { snapname: name, description }, { signal });
  try {
    await runTaskStep(ctx, report, { step: 'snapshot', at, submit, budgetMs: ctx.budgets.snapshotMs, signal });
  } catch (e) {
    throw taskRefusal(e, at.vmid, name);
  }
  return { ...at, name, message: `snapshot ${name} taken` };
}

/** Rolls a VM found back to one of the app's snapshots; Proxmox stops a running VM first, `start` starts it after. */
export async function rollbackSnapshotAt(
  ctx: CoreContext,
  at: At,
  name: string,
  start: boolean,
  report: StepReporter<SnapshotStep>,
  signal?: AbortSignal,
): Promise<SnapshotResult> {
  refuseIfNotOurs(at.vmid, name);
  const submit = () => apiOf(ctx).rollbackSnapshot(at.node, at.vmid, name, start ? { start: 1 } : {}, { signal });
  try {
    await runTaskStep(ctx, report, {
      step: 'rollback',
      at,
      submit,
      budgetMs: ctx.budgets.snapshotMs + (start ? ctx.budgets.startMs : 0),
      signal,
    });
  } catch (e) {
    throw taskRefusal(e, at.vmid, name);
  }
  return { ...at, name, message: start ? `rolled back to ${name} and started` : `rolled back to ${name}` };
}

/** Deletes one of the app's snapshots of a VM found. */
export async function deleteSnapshotAt(
  ctx: CoreContext,
  at: At,
  name: string,
  report: StepReporter<SnapshotStep>,
  signal?: AbortSignal,
): Promise<SnapshotResult> {
  refuseIfNotOurs(at.vmid, name);
  const submit = () => apiOf(ctx).deleteSnapshot(at.node, at.vmid, name, { signal });
  try {
    await runTaskStep(ctx, report, { step: 'delete-snapshot', at, submit, budgetMs: ctx.budgets.snapshotMs, signal });
  } catch (e) {
    throw taskRefusal(e, at.vmid, name);
  }
  return { ...at, name, message: `snapshot ${name} deleted` };
}

/** The VM at the ID, checked to be the one meant. */
async function find(ctx: CoreContext, id: string, options: SnapshotOptions, report?: StepReporter<SnapshotStep>): Promise<At> {
  const { vmid, name } = parseProviderId(id);
  report?.('lookup', 'started', { vmid });
  const r = await resolveVm(ctx, vmid, { signal: options.signal });
  if (!r?.node) throw goneError(vmid);
  const want: Wanted = { name, ...(options.expect ? { uid: options.expect.uid } : {}) };
  refuseIfNotTheOne(vmid, await readConfigOrGone(ctx, r.node, vmid, options.signal), want, SNAPSHOT_CODES.notTheOne);
  report?.('lookup', 'done', { node: r.node, vmid });
  return { node: r.node, vmid };
}

async function classified<T>(op: SnapshotOp, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw toProviderError(op, e, id);
  }
}

async function locked<T>(ctx: CoreContext, id: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  const release = await ctx.locks.acquire(parseProviderId(id).name, signal);
  try {
    return await work();
  } finally {
    release();
  }
}

export const snapshotSupport = (ctx: CoreContext, id: string, options: SnapshotOptions = {}) =>
  classified('snapshot-support', id, async () => snapshotSupportAt(ctx, await find(ctx, id, options), options.signal));

export const listSnapshots = (ctx: CoreContext, id: string, options: SnapshotOptions = {}) =>
  classified('snapshots', id, async () => listSnapshotsAt(ctx, await find(ctx, id, options), options.signal));

export function createSnapshot(ctx: CoreContext, id: string, plan: SnapshotPlan, options: SnapshotOptions = {}): Promise<SnapshotResult> {
  const report = stepReporter('snapshot', snapshotSteps, options.onProgress);
  return classified('snapshot', id, () =>
    locked(ctx, id, options.signal, async () => createSnapshotAt(ctx, await find(ctx, id, options, report), plan, report, options.signal)),
  );
}

export function rollbackSnapshot(
  ctx: CoreContext,
  id: string,
  name: string,
  options: SnapshotOptions & { start?: boolean } = {},
): Promise<SnapshotResult> {
  const report = stepReporter('rollback', snapshotSteps, options.onProgress);
  return classified('rollback', id, () =>
    locked(ctx, id, options.signal, async () =>
      rollbackSnapshotAt(ctx, await find(ctx, id, options, report), name, options.start ?? false, report, options.signal),
    ),
  );
}

export function deleteSnapshot(ctx: CoreContext, id: string, name: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
  const report = stepReporter('delete-snapshot', snapshotSteps, options.onProgress);
  return classified('delete-snapshot', id, () =>
    locked(ctx, id, options.signal, async () => deleteSnapshotAt(ctx, await find(ctx, id, options, report), name, report, options.signal)),
  );
}
