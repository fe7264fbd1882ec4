/**
 * createProvider: the public face of the core. One provider per cluster
 * profile; it holds the per-name locks, so create and delete of one name
 * never interleave across calls.
 */
import { createLogger, type Logger } from '../../log/logger';
import type { PveApi } from '../pve/api';
import { buildSeedIso, seedIsoName, seedVolumeId } from '../seed/nocloud';
import { defaultBudgets, type Budgets } from './rules/budgets';
import { check, type NodeCheck } from './operations/check';
import type { CallOptions, CloneGate, CoreContext, SeedBuilder } from './calls/context';
import { create } from './operations/create';
import { nodeBridges, type NodeBridge } from './operations/bridges';
import { deleteVm } from './operations/delete';
import { get, type Instance } from './operations/get';
import { KeyedLock } from './calls/keyed-lock';
import { listByTag, type ListedInstance } from './operations/list';
import type { CreateRequest } from './cluster/placement';
import { power, type PowerOptions, type PowerResult } from './operations/power';
import { consoleOf, type VmConsole } from './operations/console';
import { notesOf, setNotes, type NotesChange, type VmNotes } from './operations/notes';
import { setMarkUid, type MarkUidChange, type MarkUidResult } from './operations/mark-uid';
import { historyLogOf, taskHistoryOf, type TaskHistory, type TaskHistoryOptions, type TaskLogPage } from './operations/task-history';
import { migrate, type MigrateOptions, type MigrateResult } from './operations/migrate';
import { reconfigure, type ReconfigureChange, type ReconfigureOptions, type ReconfigureResult } from './operations/reconfigure';
import { recreate, type RecreateOptions, type RecreateResult } from './operations/recreate';
import { parseProfile, type ProfileInput } from './rules/profile';
import {
  createSnapshot,
  deleteSnapshot,
  listSnapshots,
  rollbackSnapshot,
  snapshotSupport,
  type SnapshotListing,
  type SnapshotOptions,
  type SnapshotPlan,
  type SnapshotResult,
  type SnapshotSupport,
} from './operations/snapshots';

export interface ProviderDeps {
  api: PveApi;
  logger?: Logger;
  /** Shrunk in tests. */
  budgets?: Partial<Budgets>;
  now?: () => Date;
  seed?: SeedBuilder;
  /** Bounds full clones per storage for every create of this provider (a create's CallOptions.cloneGate wins). */
  cloneGate?: CloneGate;
}

export interface Provider {
  create(request: CreateRequest, options?: CallOptions): Promise<string>;
  get(id: string, options?: CallOptions): Promise<Instance>;
  delete(id: string, options?: CallOptions): Promise<void>;
  listByTag(options?: CallOptions): Promise<ListedInstance[]>;
  check(options?: CallOptions): Promise<NodeCheck[]>;
  /** Issue 16 (power.ts): start (or resume a paused or hibernated VM); a running VM is "already running". */
  start(id: string, options?: PowerOptions): Promise<PowerResult>;
  /** Clean shutdown (ACPI or agent) within `timeoutSeconds`; a timeout is transient with code `shutdown-timeout`. */
  shutdown(id: string, options?: PowerOptions): Promise<PowerResult>;
  /** Hard stop; a stopped or hibernated VM is "already stopped". */
  stop(id: string, options?: PowerOptions): Promise<PowerResult>;
  /** Shutdown and start again; needs the VM running and not paused. */
  reboot(id: string, options?: PowerOptions): Promise<PowerResult>;
  /**
   * Issue 16 (migrate.ts): move the VM to `target`, live when it runs. Steps: lookup, copy-seed, detach-seed, migrate,
   * attach-seed, delete-source-seed (the seed steps only for a seed on local storage, which needs `options.seed`).
   * Resumable from Proxmox's state; pass `from` (lookup's node) on a Resume.
   */
  migrate(id: string, target: string, options?: MigrateOptions): Promise<MigrateResult>;
  /**
   * Issue 16 (reconfigure.ts): cores, memory, a larger disk, new user-data (a new seed with a new instance-id, swapped
   * without a moment without a complete seed), then a reboot when something waits for the next start. Steps: lookup,
   * configure, resize, stage-seed, replace-seed, reboot, wait-running. Resumable: rerun with the same change.
   */
  reconfigure(id: string, change: ReconfigureChange, options?: ReconfigureOptions): Promise<ReconfigureResult>;
  /**
   * Issue 16 (recreate.ts): delete the VM of `oldId`, then create `request` (same name, image, machine type, user-data;
   * a new uid). Steps: lookup, stop, delete-seed, destroy, then clone … wait-running (recreatePhaseOf says which half).
   * Resumable: rerun with the same request.
   */
  recreate(oldId: string, request: CreateRequest, options?: RecreateOptions): Promise<RecreateResult>;
  /** Issue 24 (bridges.ts): the bridges, OVS bridges and SDN vnets a proxy can join on `node`, as the token sees them. */
  bridges(node: string, options?: CallOptions): Promise<NodeBridge[]>;
  /** Issue 16 (console.ts): the Proxmox web UI console URLs for the VM (reads only). */
  console(id: string, options?: CallOptions): Promise<VmConsole>;
  /** Issue 23 (notes.ts): the VM's notes below the marks and its tags, read now. */
  notes(id: string, options?: CallOptions): Promise<VmNotes>;
  /** Issue 23 (notes.ts): write a marked VM's notes and tags (one config PUT with the read's digest), the marks untouched. */
  setNotes(id: string, change: NotesChange, options?: CallOptions): Promise<VmNotes>;
  /** Issue 26 (mark-uid.ts): rewrite the mark's uid (release for the operator's adoption, or undo), identity and digest checked. */
  setMarkUid(id: string, change: MarkUidChange, options?: CallOptions): Promise<MarkUidResult>;
  /** Issue 23 (task-history.ts): every Proxmox task of the VM on every online node, newest first, bounded. */
  taskHistory(id: string, options?: TaskHistoryOptions): Promise<TaskHistory>;
  /** Issue 23 (task-history.ts): a page of the log of one of the VM's tasks. */
  taskHistoryLog(vmid: number, upid: string, range?: { start?: number; limit?: number }, options?: CallOptions): Promise<TaskLogPage>;
  /** Issue 25 (snapshots.ts): whether every disk of the VM can snapshot, the ones that cannot named in words. */
  snapshotSupport(id: string, options?: SnapshotOptions): Promise<SnapshotSupport>;
  /** Issue 25 (snapshots.ts): the VM's snapshots, oldest first, the app's own recognised by name. */
  snapshots(id: string, options?: SnapshotOptions): Promise<SnapshotListing>;
  /** Issue 25 (snapshots.ts): take the app's snapshot before a change (refused in words when a disk cannot). */
  createSnapshot(id: string, plan: SnapshotPlan, options?: SnapshotOptions): Promise<SnapshotResult>;
  /** Issue 25 (snapshots.ts): roll back to one of the app's snapshots (stops a running VM; `start` starts it after). */
  rollbackSnapshot(id: string, name: string, options?: SnapshotOptions & { start?: boolean }): Promise<SnapshotResult>;
  /** Issue 25 (snapshots.ts): delete one of the app's snapshots. */
  deleteSnapshot(id: string, name: string, options?: SnapshotOptions): Promise<SnapshotResult>;
}

const defaultSeed: SeedBuilder = { buildSeedIso, seedIsoName, seedVolumeId };

/** Validates the profile (every problem listed, as one permanent error) and never makes a request. */
export function createProvider(profile: ProfileInput, deps: ProviderDeps): Provider {
  const ctx: CoreContext = {
    profile: parseProfile(profile),
    api: deps.api,
    budgets: { ...defaultBudgets, ...deps.budgets },
    log: (deps.logger ?? createLogger({ sinks: [] })).child({ component: 'proxmox' }),
    now: deps.now ?? (() => new Date()),
    locks: new KeyedLock(),
    seed: deps.seed ?? defaultSeed,
    cloneGate: deps.cloneGate,
  };
  return {
    create: (request, options) => create(ctx, request, options),
    get: (id, options) => get(ctx, id, options),
    delete: (id, options) => deleteVm(ctx, id, options),
    listByTag: (options) => listByTag(ctx, options),
    check: (options) => check(ctx, options),
    start: (id, options) => power(ctx, 'start', id, options),
    shutdown: (id, options) => power(ctx, 'shutdown', id, options),
    stop: (id, options) => power(ctx, 'stop', id, options),
    reboot: (id, options) => power(ctx, 'reboot', id, options),
    migrate: (id, target, options) => migrate(ctx, id, target, options),
    reconfigure: (id, change, options) => reconfigure(ctx, id, change, options),
    recreate: (oldId, request, options) => recreate(ctx, oldId, request, options),
    bridges: (node, options) => nodeBridges(ctx, node, options?.signal),
    console: (id, options) => consoleOf(ctx, id, options),
    notes: (id, options) => notesOf(ctx, id, options),
    setNotes: (id, change, options) => setNotes(ctx, id, change, options),
    setMarkUid: (id, change, options) => setMarkUid(ctx, id, change, options),
    taskHistory: (id, options) => taskHistoryOf(ctx, id, options),
    taskHistoryLog: (vmid, upid, range, options) => historyLogOf(ctx, vmid, upid, range, options),
    snapshotSupport: (id, options) => snapshotSupport(ctx, id, options),
    snapshots: (id, options) => listSnapshots(ctx, id, options),
    createSnapshot: (id, plan, options) => createSnapshot(ctx, id, plan, options),
    rollbackSnapshot: (id, name, options) => rollbackSnapshot(ctx, id, name, options),
    deleteSnapshot: (id, name, options) => deleteSnapshot(ctx, id, name, options),
  };
}
