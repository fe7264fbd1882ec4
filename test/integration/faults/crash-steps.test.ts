/**
 * The host process killed at every step of create and delete: after a
 * restart the task is listed as interrupted, Resume finishes it, and the
 * cluster holds no unmarked VM, no duplicate and no seed without its VM.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatProviderId } from '../../../main/core';
import { SEED_STORAGE, VERSION_PROFILES, type PveVersion } from '../../../main/simulator';
import { startEnv, type Env } from '../services/tasks/harness';
import { NODE, plantProxy } from './cell';
import { killAtStep } from './crash';
import { crashSteps, matrixVersions } from './matrix';
import { assertClean } from './run-cell';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const named = (e: Env, name: string) => [...e.t.sim.state.vms.values()].filter((vm) => vm.config.name === name);

async function restarted(e: Env, kind: 'create-proxy' | 'delete-proxy') {
  e.manager = e.open();
  const task = e.manager.list().find((t) => t.kind === kind);
  expect(task).toMatchObject({ state: 'interrupted' });
  expect(task!.actions).toContain('resume');
  e.manager.resume(task!.id);
  expect(await e.manager.wait(task!.id)).toMatchObject({ state: 'succeeded' });
}

describe.each(matrixVersions)('Proxmox VE %s', (version: PveVersion) => {
  describe('host killed mid-create, then resumed', () => {
    // On 7.4 the resize step has no task: the kill lands while its request (the disk grow itself) is held.
    it.each(crashSteps.create)('killed at %s: Resume ends with one running, marked VM and its seed', async (step) => {
      env = await startEnv({ version });
      await env.manager.close();
      const baseline = new Set(env.t.sim.state.vms.keys());
      await killAtStep(env, step, { kind: 'create', name: 'proxy-crash', machineType: 'medium', template: 't9001' });
      await restarted(env, 'create-proxy');
      const vms = named(env, 'proxy-crash');
      expect(vms.map((vm) => vm.power)).toEqual(['running']);
      expect(vms[0]!.config.scsi0).toMatch(/size=8G/);
      const resizeTasks = [...env.t.sim.tasks.tasks.values()].filter((t) => t.type === 'qmresize');
      expect(resizeTasks.length > 0, `a qmresize task ran on ${version}`).toBe(VERSION_PROFILES[version].resizeIsTask);
      expect(env.t.sim.state.iso(NODE, SEED_STORAGE, 'proxy-crash-seed.iso')).toBeDefined();
      assertClean({ sim: env.t.sim, baseline });
    });
  });

  describe('host killed mid-delete, then resumed', () => {
    it.each(crashSteps.delete)('killed at %s: Resume ends with the VM and its seed gone', async (step) => {
      env = await startEnv({ version });
      await env.manager.close();
      const baseline = new Set(env.t.sim.state.vms.keys());
      const doomed = { vmid: 150_010, name: 'proxy-doomed', uid: '5e6f7081-92a3-4b4c-8d5e-6f708192a3b4' };
      plantProxy(env.t.sim, doomed);
      await killAtStep(env, step, { kind: 'delete', id: formatProviderId(doomed.vmid, doomed.name) });
      await restarted(env, 'delete-proxy');
      expect(named(env, doomed.name)).toEqual([]);
      expect(env.t.sim.state.iso(NODE, SEED_STORAGE, `${doomed.name}-seed.iso`)).toBeUndefined();
      assertClean({ sim: env.t.sim, baseline });
    });
  });
});
