/** A simulated cluster, a task manager on a fresh journal directory, and a PveApi wrapper that calls a hook as each request goes out. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createProvider } from '../../../../main/core';
import type { PveApi } from '../../../../main/core/pve/api';
import { createLogger } from '../../../../main/log/logger';
import type { Cluster } from '../../../../main/services/clusters/cluster';
import { createTaskManager, type PublishedEvent, type TaskManagerOptions } from '../../../../main/services/tasks/task-manager';
import { startSimCluster, type SimCluster, type SimClusterOptions } from '../../../support/sim-cluster';

export const fastBudgets = { youngPollMs: 5, oldPollMs: 20, youngForMs: 100 };
export const SENTINEL = 'S3NTINEL-pa55word-7f3a';
export const cloudInit = `#cloud-config\nchpasswd:\n  list: |\n    root:${SENTINEL}\n`;

export type Hook = (method: keyof PveApi, args: unknown[]) => void;

/** Calls `hook` synchronously before each request leaves: the moment "the API call arrives" for the test. */
export function hooked(api: PveApi, hook: Hook): PveApi {
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        hook(prop as keyof PveApi, args);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export interface Env {
  t: SimCluster;
  dir: string;
  events: PublishedEvent[];
  manager: ReturnType<typeof createTaskManager>;
  open(extra?: Partial<TaskManagerOptions>): ReturnType<typeof createTaskManager>;
  close(): Promise<void>;
}

export async function startEnv(sim: SimClusterOptions = {}, extra: Partial<TaskManagerOptions> = {}, hook?: Hook): Promise<Env> {
  const t = await startSimCluster({ budgets: fastBudgets, ...sim });
  if (hook) {
    const api = hooked(t.client, hook);
    const cluster: Cluster = { ...t.cluster, api, provider: createProvider(t.cluster.profile, { api, budgets: fastBudgets }) };
    t.directory.set(cluster);
  }
  const dir = mkdtempSync(join(tmpdir(), 'egress-tasks-'));
  const events: PublishedEvent[] = [];
  const open = (more: Partial<TaskManagerOptions> = {}) =>
    createTaskManager({
      directory: t.directory,
      journalDir: dir,
      logger: sim.logger ?? createLogger({ sinks: [] }),
      publish: (e) => events.push(e),
      logFollowMs: 5,
      updateThrottleMs: 0,
      ...extra,
      ...more,
    });
  const env: Env = {
    t,
    dir,
    events,
    manager: open(),
    open,
    async close() {
      await env.manager.close();
      await t.close();
    },
  };
  return env;
}

/** A proxy this app made (so not operator-made) on pv1-1 of the env's cluster, with this user-data; its VMID. */
export async function madeHere(e: Env, name: string, userData: string): Promise<number> {
  const { taskIds } = await e.manager.createProxies({
    clusterId: 'sim',
    node: 'pv1-1',
    template: 't9001',
    machineType: 'small',
    name,
    count: 1,
    cloudInit: userData,
  });
  const done = await e.manager.wait(taskIds[0]!);
  expect(done.state, done.message).toBe('succeeded');
  return done.vmid!;
}
