/**
 * Issue 26: the host process killed in the one step of a release for the
 * Kubernetes operator's adoption, and of its Undo (the mark's rewrite), its
 * config write held and then landing with nobody listening, on each Proxmox
 * VE version profile. After a restart the task is listed as interrupted
 * with Resume; Resume converges: the mark is what the task meant (uid empty,
 * or the app's UID back), every other byte of the Notes as it was, and the
 * record follows it, so the Undo after a resumed release still knows the
 * seed it released (and a seed uploaded again since still refuses it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseMark } from '../../../main/core';
import { SEED_STORAGE, type PveVersion } from '../../../main/simulator';
import { madeHere, startEnv, type Env } from '../services/tasks/harness';
import { killAtStep } from './crash';
import { matrixVersions } from './matrix';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});
const USER_DATA = '#cloud-config\npackages: [squid]\n';
const STEP = 'rewrite the mark';

async function resumeOne(e: Env, kind: 'release-proxy' | 'reclaim-proxy') {
  e.manager = e.open();
  const task = e.manager.list().find((t) => t.kind === kind);
  expect(task).toMatchObject({ state: 'interrupted' });
  expect(task!.actions).toContain('resume');
  e.manager.resume(task!.id);
  const done = await e.manager.wait(task!.id);
  expect(done.state, done.message).toBe('succeeded');
  return done;
}

describe.each(matrixVersions)('Proxmox VE %s', (version: PveVersion) => {
  it('killed mid-release: Resume finds the mark released, and the Undo after it knows the seed it released', async () => {
    const e = (env = await startEnv({ version, agentDelayMs: 0 }));
    const name = 'proxy-hand';
    const vmid = await madeHere(e, name, USER_DATA);
    const description = () => String(e.t.sim.state.vm(vmid)!.config.description);
    const before = description();
    const uid = parseMark(before).uid;
    await e.manager.close();

    await killAtStep(e, STEP, { kind: 'release', vmid, name });
    const done = await resumeOne(e, 'release-proxy');
    expect(done.message).toMatch(/handed to the Kubernetes operator/);
    expect(description()).toBe(before.replace(`proxy-operator-uid=${uid}`, 'proxy-operator-uid='));
    expect(e.manager.releasedAs('sim', vmid, name)).toBe(uid);

    // The operator's adoption of the stopped VM uploads its seed again: the resumed release's record still tells it.
    const vm = e.t.sim.state.vm(vmid)!;
    e.t.sim.state.putIso(vm.node, SEED_STORAGE, `${name}-seed.iso`, new Uint8Array(2048).fill(1));
    const undo = await e.manager.wait(e.manager.reclaim({ clusterId: 'sim', targets: [{ vmid, name }] }).taskIds[0]!);
    expect(undo.state).toBe('failed');
    expect(undo.error?.message).toMatch(/the Kubernetes operator has adopted it/);
    expect(parseMark(description()).uid).toBe('');
  });

  it('killed mid-undo: Resume finds the app’s UID back, every other byte of the Notes kept', async () => {
    const e = (env = await startEnv({ version, agentDelayMs: 0 }));
    const name = 'proxy-back';
    const vmid = await madeHere(e, name, USER_DATA);
    const before = String(e.t.sim.state.vm(vmid)!.config.description);
    const released = await e.manager.wait((await e.manager.release({ clusterId: 'sim', targets: [{ vmid, name }] })).taskIds[0]!);
    expect(released.state, released.message).toBe('succeeded');
    await e.manager.close();

    // The release before it ran the same step: the kill waits for the undo's own.
    await killAtStep(e, STEP, { kind: 'reclaim', vmid, name }, 'reclaim-proxy');
    const done = await resumeOne(e, 'reclaim-proxy');
    expect(done.message).toMatch(/is the app's again: its UID is back in the mark/);
    expect(String(e.t.sim.state.vm(vmid)!.config.description)).toBe(before);
    expect(e.manager.releasedAs('sim', vmid, name)).toBeUndefined();
  });
});
