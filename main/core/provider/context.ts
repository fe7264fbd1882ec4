/**
 * What every operation needs: the validated profile, the Proxmox seam, the
 * budgets, a logger, a clock, the per-name locks and the seed builder.
 */
import type { PveApi } from '../pve/api';
import type { Logger } from '../../log/logger';
import type { Budgets } from './budgets';
import type { KeyedLock } from './keyed-lock';
import type { Profile } from './profile';
import type { ProgressListener } from './progress';

export interface SeedBuilder {
  buildSeedIso(input: { name: string; userData: string; vendorData?: string; installGuestAgent: boolean; now?: Date }): Uint8Array;
  seedIsoName(name: string): string;
  seedVolumeId(isoStorage: string, name: string): string;
}

export interface CoreContext {
  profile: Profile;
  api: PveApi;
  budgets: Budgets;
  log: Logger;
  now: () => Date;
  locks: KeyedLock;
  seed: SeedBuilder;
}

/** Every call takes these: a signal that cancels it, and for create and delete a progress listener. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

export type VmConfig = Record<string, string>;
export type ClusterResource = Awaited<ReturnType<PveApi['clusterResources']>>[number];
