/**
 * What every operation needs: the validated profile, the Proxmox seam, the
 * budgets, a logger, a clock, the per-name locks and the seed builder.
 */
import type { PveApi } from '../../pve/api';
import type { Logger } from '../../../log/logger';
import type { Budgets } from '../rules/budgets';
import type { KeyedLock } from './keyed-lock';
import type { Profile } from '../rules/profile';
import type { ProgressListener } from './progress';

export interface SeedBuilder {
  buildSeedIso(input: {
    name: string;
    userData: string;
    instanceId?: string;
    vendorData?: string;
    installGuestAgent: boolean;
    now?: Date;
    networkConfig?: string;
  }): Uint8Array;
  seedIsoName(name: string): string;
  seedVolumeId(isoStorage: string, name: string): string;
}

/**
 * Waits for a turn to copy disks onto `storage` (written on `node`) and resolves with its release. `from`, when given,
 * is the other end of a copy that also busies its source's disk (a migrate reads one node's disk and writes another's).
 * The task manager bounds full clones per storage with it (main/services/tasks/clone-gate.ts); without one, clones
 * run unbounded.
 */
export type CloneGate = (
  target: { node: string; storage?: string | undefined; from?: { node: string; storage: string } | undefined },
  signal?: AbortSignal,
) => Promise<() => void>;

export interface CoreContext {
  profile: Profile;
  api: PveApi;
  budgets: Budgets;
  log: Logger;
  now: () => Date;
  locks: KeyedLock;
  seed: SeedBuilder;
  /** Bounds concurrent disk copies (clones, migrates) per storage; CallOptions.cloneGate overrides it per call. */
  cloneGate?: CloneGate | undefined;
}

/** Every call takes these: a signal that cancels it, and for create and delete a progress listener. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** For create: the gate its clone (and migrate) copy waits at, e.g. the task manager's per-storage slots. */
  cloneGate?: CloneGate | undefined;
}

export type VmConfig = Record<string, string>;
export type ClusterResource = Awaited<ReturnType<PveApi['clusterResources']>>[number];
