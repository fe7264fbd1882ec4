/**
 * Crash and resume over the simulator: a create (or delete) is cut off when
 * a given step starts, or once its Proxmox task is running, and then run
 * again with the same request. The simulator's own state decides: one VM,
 * running, at the ID the first attempt aimed at, and one seed; or, for a
 * delete, nothing left. The tasks an aborted attempt submitted run on, as
 * they do on Proxmox. On each Proxmox VE version profile of the simulator;
 * a cut point a version lacks (7.4's resize has no task) is skipped and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSteps, deleteSteps, isProviderError, vmidFor, type CallOptions, type CreateRequest } from '../../../main/core';
import { PVE_VERSIONS, SEED_STORAGE, VERSION_PROFILES, type PveVersion } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

const STEPS_WITH_TASKS = new Set(['clone', 'upload-seed', 'resize', 'start', 'stop', 'delete-seed', 'destroy']);

/** Why a step has no Proxmox task on a version (main/simulator/versions.ts), so its `task` cut point does not exist there. */
function noTaskOn(version: PveVersion, step: string): string | undefined {
  if (step === 'resize' && !VERSION_PROFILES[version].resizeIsTask)
    return `Proxmox VE ${version} grows the disk inside the resize request ({"data":null}, qemu-server before 8.0.2): there is no task to cut at; core/versions.test.ts cuts inside that request instead`;
  return undefined;
}

/** Each step's cut points on this version, and the ones it lacks with the reason. */
function cutPoints(steps: readonly string[], version: PveVersion) {
  const run: (readonly [string, 'started' | 'task'])[] = [];
  const skipped: { cut: string; why: string }[] = [];
  for (const step of steps) {
    run.push([step, 'started'] as const);
    if (!STEPS_WITH_TASKS.has(step)) continue;
    const why = noTaskOn(version, step);
    if (why) skipped.push({ cut: `${step}/task`, why });
    else run.push([step, 'task'] as const);
  }
  return { run, skipped };
}

/** A cut point the version lacks: listed as skipped, with its reason printed. */
function skipCuts(version: PveVersion, skipped: { cut: string; why: string }[]) {
  for (const { cut, why } of skipped) {
    console.log(`[crash-resume, Proxmox VE ${version}] cut at ${cut} skipped: ${why}`);
    it.skip(`cut at ${cut}: not on ${version} (${why})`, () => {});
  }
}

let counter = 0;
function freshRequest(): CreateRequest {
  counter++;
  return {
    uid: `c0ffee00-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    name: `proxy-crash-${counter}`,
    placement: { machineType: 'big', image: 'debian-13' },
    cloudInit: '#cloud-config\n',
  };
}

/** Runs `op` and aborts it the moment the given step reaches the given phase; resolves to what it threw. */
async function cutOff(op: (options: CallOptions) => Promise<unknown>, step: string, phase: string): Promise<unknown> {
  const controller = new AbortController();
  const onProgress: CallOptions['onProgress'] = (e) => {
    if (e.step === step && e.phase === phase) controller.abort();
  };
  return op({ signal: controller.signal, onProgress }).then(
    () => new Error(`the operation finished: ${step} never reached ${phase}`),
    (e: unknown) => e,
  );
}

describe.each(PVE_VERSIONS)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  beforeAll(async () => {
    // Slow enough (clone 30 ms, other tasks 10 ms) that a rerun meets the first attempt's tasks still running.
    env = await simProvider({ timeScale: 0.01, agentDelayMs: 0, version });
  });
  afterAll(async () => env?.close());

  const seedsOf = (name: string) =>
    [...(env.sim.state.node('pv1-1')!.isos.get(SEED_STORAGE)?.keys() ?? [])].filter((f) => f.startsWith(`${name}-`));
  const vmsNamed = (name: string) => [...env.sim.state.vms.values()].filter((vm) => vm.config.name === name);
  const workVms = () => [...env.sim.state.vms.values()].filter((vm) => !vm.template).length;

  describe('create cut off at each step, then run again', () => {
    // One node: the migrate step never runs here; test/integration/core/landing.test.ts cuts a create at it.
    const cuts = cutPoints(
      createSteps.filter((s) => s !== 'migrate'),
      version,
    );
    skipCuts(version, cuts.skipped);
    it.each(cuts.run)('cut at %s/%s: one VM, running, same ID, one seed', async (step, phase) => {
      const request = freshRequest();
      const before = workVms();
      const expectedId = `vms/${vmidFor(request.uid, { min: 100_000, max: 199_999 }, 0)}/${request.name}`;

      const err = await cutOff((o) => env.provider.create(request, o), step, phase);
      expect(isProviderError(err, 'transient'), String(err)).toBe(true);

      expect(await env.provider.create(request)).toBe(expectedId);
      const vms = vmsNamed(request.name);
      expect(vms).toHaveLength(1);
      expect(vms[0]).toMatchObject({ vmid: Number(expectedId.split('/')[1]), power: 'running', cloning: false });
      expect(workVms()).toBe(before + 1);
      expect(seedsOf(request.name)).toEqual([`${request.name}-seed.iso`]);
      expect((await env.provider.get(expectedId)).state).toBe('running');
    });
  });

  describe('delete cut off at each step, then run again', () => {
    const cuts = cutPoints(deleteSteps, version);
    skipCuts(version, cuts.skipped);
    it.each(cuts.run)('cut at %s/%s: nothing left behind', async (step, phase) => {
      const request = freshRequest();
      const id = await env.provider.create(request);
      const vmid = Number(id.split('/')[1]);

      const err = await cutOff((o) => env.provider.delete(id, o), step, phase);
      expect(isProviderError(err, 'transient'), String(err)).toBe(true);

      await env.provider.delete(id);
      expect(env.sim.state.vm(vmid)).toBeUndefined();
      expect(vmsNamed(request.name)).toEqual([]);
      expect(seedsOf(request.name)).toEqual([]);
      const again = await env.provider.get(id).catch((e: unknown) => e);
      expect(isProviderError(again, 'not-found')).toBe(true);
    });
  });

  describe('create cut off once its start task runs, when the start outlasts the rerun', () => {
    let slow: SimProvider;
    beforeAll(async () => {
      // The start takes 400 ms: the rerun adopts the VM while it is still stopped and submits its own start before the first ends.
      slow = await simProvider({ timeScale: 0.01, agentDelayMs: 0, taskDurations: { qmstart: 40_000 }, version });
    });
    afterAll(async () => slow?.close());

    it('the rerun ends with the VM running and its ID, not with "already running"', async () => {
      const request = freshRequest();
      const err = await cutOff((o) => slow.provider.create(request, o), 'start', 'task');
      expect(isProviderError(err, 'transient'), String(err)).toBe(true);
      const id = await slow.provider.create(request);
      expect(id).toBe(`vms/${vmidFor(request.uid, { min: 100_000, max: 199_999 }, 0)}/${request.name}`);
      expect(slow.sim.state.vm(Number(id.split('/')[1]))?.power).toBe('running');
      expect(slow.sim.requests.count({ route: '/nodes/{node}/qemu/{vmid}/status/start' })).toBe(2);
    });
  });
});
