/**
 * One cell's world: a fresh simulator, a client with a short request
 * timeout, a provider with shrunken budgets over a hookable API, and the
 * cleanup service over a task manager. A bystander proxy and a delete
 * target are planted, each with its seed, so "the app still serves other
 * requests" and "no leftover seed" have something to look at.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budgetsWith, createProvider, formatProviderId, parseProfile, type Provider } from '../../../main/core';
import type { PveApi } from '../../../main/core/pve/api';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import { createLogger } from '../../../main/log/logger';
import { createCleanupService, type CleanupService } from '../../../main/services/cleanup/service';
import { MutableClusterDirectory } from '../../../main/services/clusters/cluster';
import { createTaskManager, type TaskManager } from '../../../main/services/tasks/task-manager';
import { minimalCluster, proxyVm, SEED_STORAGE, startSimulator, type PveVersion, type Simulator } from '../../../main/simulator';
import type { ClusterDefinition } from '../../../main/simulator/types';
import { coreProfile } from '../core/sim-provider';
import { profileFor } from '../../support/sim-cluster';

export const NODE = 'pv1-1';
export const CLUSTER_ID = 'faults';
/** Short enough that a hang resolves fast, long enough for a loaded 2-core machine. */
export const REQUEST_TIMEOUT_MS = 600;
export const budgets = budgetsWith({
  cloneMs: 1200,
  uploadMs: 1200,
  resizeMs: 1200,
  startMs: 1200,
  stopMs: 1200,
  destroyMs: 1200,
  seedDeleteMs: 1200,
  runningMs: 1200,
  youngPollMs: 3,
  oldPollMs: 10,
  youngForMs: 200,
});

export const BYSTANDER = { vmid: 150_001, name: 'proxy-bystander', uid: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d' };
export const TARGET = { vmid: 150_002, name: 'proxy-target', uid: '1c2d3e4f-5061-4b7c-9d8e-0f1a2b3c4d5e' };
export const ORPHAN_SEED = 'proxy-orphan-seed.iso';
export const idOf = (vm: { vmid: number; name: string }) => formatProviderId(vm.vmid, vm.name);

/** Runs before an API method's request leaves: where "the VM vanishes between two calls" happens. */
export type CallHook = (method: keyof PveApi, args: unknown[]) => void;

export interface Cell {
  sim: Simulator;
  client: PveClient;
  provider: Provider;
  tasks: TaskManager;
  cleanup: CleanupService;
  /** Where the task manager keeps its journal. */
  journalDir: string;
  /** Closes the task manager, runs `between` (the app is not running), and starts a new one on the same journal. */
  restartTasks(between?: () => void): Promise<void>;
  /** VMIDs the dataset brought: everything else must carry our mark. */
  baseline: Set<number>;
  setHook(hook: CallHook | undefined): void;
  close(): Promise<void>;
}

function hooked(api: PveApi, hook: () => CallHook | undefined): PveApi {
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        hook()?.(prop as keyof PveApi, args);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export function plantProxy(sim: Simulator, vm: { vmid: number; name: string; uid: string }, power: 'running' | 'stopped' = 'running') {
  sim.state.addVm(NODE, proxyVm(vm.vmid, vm.name, vm.uid, power));
  sim.state.putIso(NODE, SEED_STORAGE, `${vm.name}-seed.iso`, new Uint8Array(2048));
}

/** `version`: the Proxmox VE profile the simulator answers as (main/simulator/versions.ts); 9.2 by default. */
/** The minimal cluster and a second, empty node like it: somewhere for a migrate to go (the day-two cells). */
export function twoNodeCluster(): ClusterDefinition {
  const cluster = minimalCluster();
  const first = cluster.nodes[0]!;
  const second = { node: SECOND_NODE, storages: first.storages.map((st) => ({ ...st })), bridges: first.bridges, vms: [] };
  return { ...cluster, nodes: [first, second] };
}
export const SECOND_NODE = 'pv1-2';

/** `twoNodes`: the cluster of twoNodeCluster() instead of the minimal one. */
export async function startCell(options: { journalDir?: string; version?: PveVersion; twoNodes?: boolean } = {}): Promise<Cell> {
  const logger = createLogger({ sinks: [] });
  const sim = await startSimulator({
    timeScale: 0.001,
    agentDelayMs: 0,
    version: options.version,
    ...(options.twoNodes ? { dataset: twoNodeCluster() } : {}),
  });
  const baseline = new Set(sim.state.vms.keys());
  plantProxy(sim, BYSTANDER);
  plantProxy(sim, TARGET);
  sim.state.putIso(NODE, SEED_STORAGE, ORPHAN_SEED, new Uint8Array(2048));

  const admin = sim.tokens.admin!;
  const client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem ?? '' },
    token: { kind: 'secret', tokenId: admin.tokenId, secret: () => admin.secret },
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    logger,
  });
  let hook: CallHook | undefined;
  const api = hooked(client, () => hook);
  const profile = parseProfile(profileFor(sim, admin.tokenId, coreProfile));
  const provider = createProvider(profile, { api, logger, budgets });
  const directory = new MutableClusterDirectory();
  directory.set({ id: CLUSTER_ID, name: 'Fault matrix', profile, api, provider, demo: false });
  const journalDir = options.journalDir ?? mkdtempSync(join(tmpdir(), 'egress-faults-'));
  const openTasks = () => createTaskManager({ directory, journalDir, logger, logFollowMs: 5, updateThrottleMs: 0 });
  const tasks = openTasks();
  const cell: Cell = {
    sim,
    client,
    provider,
    tasks,
    cleanup: createCleanupService({ directory, tasks }),
    journalDir,
    async restartTasks(between) {
      await cell.tasks.close();
      between?.();
      cell.tasks = openTasks();
      cell.cleanup = createCleanupService({ directory, tasks: cell.tasks });
    },
    baseline,
    setHook: (h) => (hook = h),
    async close() {
      await cell.tasks.close();
      await client.close();
      await sim.close();
      if (!options.journalDir) rmSync(journalDir, { recursive: true, force: true });
    },
  };
  return cell;
}

export const freshRequest = () => ({
  uid: randomUUID(),
  name: 'proxy-fresh',
  placement: { machineType: 'big', image: 'debian-13' },
  cloudInit: '#cloud-config\n',
});
