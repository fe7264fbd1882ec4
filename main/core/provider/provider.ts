/**
 * createProvider: the public face of the core. One provider per cluster
 * profile; it holds the per-name locks, so create and delete of one name
 * never interleave across calls.
 */
import { createLogger, type Logger } from '../../log/logger';
import type { PveApi } from '../pve/api';
import { buildSeedIso, seedIsoName, seedVolumeId } from '../seed/nocloud';
import { defaultBudgets, type Budgets } from './budgets';
import { check, type NodeCheck } from './check';
import type { CallOptions, CloneGate, CoreContext, SeedBuilder } from './context';
import { create } from './create';
import { deleteVm } from './delete';
import { get, type Instance } from './get';
import { KeyedLock } from './keyed-lock';
import { listByTag, type ListedInstance } from './list';
import type { CreateRequest } from './placement';
import { power, type PowerOptions, type PowerResult } from './power';
import { parseProfile, type ProfileInput } from './profile';

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
  };
}
