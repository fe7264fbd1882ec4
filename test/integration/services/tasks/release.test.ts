/**
 * Issue 26: Release for adoption and its Undo through the task manager on the
 * simulator: a journalled task each, the mark's uid emptied and written back
 * (every other byte kept), refused in words before any task for a proxy
 * whose user-data the app does not keep, one a task is working on, and an
 * Undo of a VM this app did not release; a resumed release finds its write done.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseMark } from '../../../../main/core';
import { SEED_STORAGE } from '../../../../main/simulator';
import { madeHere, startEnv, type Env } from './harness';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importManifests } from '../../../../main/services/handoff/import';
import type { ProfileSummary } from '../../../../shared/domain/profile';

const SAMPLE = join(__dirname, '../../../../../shared/seeds/extracted/sample-proxy-proxmox.yaml');

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});
const demo = () => startEnv({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0 });
const USER_DATA = '#cloud-config\npackages: [squid]\n';
const markOf = (e: Env, vmid: number) => parseMark(String(e.t.sim.state.vm(vmid)!.config.description));

describe('release for adoption', () => {
  it('empties the uid in one journalled task, records it, and Undo writes the UID back', async () => {
    env = await demo();
    const vmid = await madeHere(env, 'hand-a', USER_DATA);
    const uid = markOf(env, vmid).uid;
    const before = String(env.t.sim.state.vm(vmid)!.config.description);
    const started = await env.manager.release({ clusterId: 'sim', targets: [{ vmid, name: 'hand-a' }] });
    const done = await env.manager.wait(started.taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.kind).toBe('release-proxy');
    expect(done.message).toMatch(/handed to the Kubernetes operator/);
    expect(String(env.t.sim.state.vm(vmid)!.config.description)).toBe(before.replace(`proxy-operator-uid=${uid}`, 'proxy-operator-uid='));
    expect(env.manager.releasedAs('sim', vmid, 'hand-a')).toBe(uid);
    // Handed off, the app never deletes it without the operator warning, and never recreates it.
    const count = env.manager.list().length;
    await expect(env.manager.deleteProxies('sim', [`vms/${vmid}/hand-a`])).rejects.toThrow(/operator/i);
    await expect(
      env.manager.recreate({ clusterId: 'sim', targets: [{ vmid, name: 'hand-a' }], acknowledgeOperatorWarning: true } as Parameters<Env['manager']['recreate']>[0]),
    ).rejects.toThrow(/without a UID/);
    expect(env.manager.list().length).toBe(count);
    // Survives a restart (the record is on disk).
    await env.manager.close();
    env.manager = env.open();
    expect(env.manager.releasedAs('sim', vmid, 'hand-a')).toBe(uid);
    const undo = env.manager.reclaim({ clusterId: 'sim', targets: [{ vmid, name: 'hand-a' }] });
    const undone = await env.manager.wait(undo.taskIds[0]!);
    expect(undone.state, undone.message).toBe('succeeded');
    expect(String(env.t.sim.state.vm(vmid)!.config.description)).toBe(before);
    expect(env.manager.releasedAs('sim', vmid, 'hand-a')).toBeUndefined();
  });

  it('an Undo after the operator adopted the proxy (its seed uploaded again) is refused in words, the mark left empty, and not offered again', async () => {
    env = await demo();
    const vmid = await madeHere(env, 'hand-c', USER_DATA);
    const done = await env.manager.wait((await env.manager.release({ clusterId: 'sim', targets: [{ vmid, name: 'hand-c' }] })).taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    // The operator's create re-runs its seed step on a stopped VM it adopts (spec entry 10, step 5): another upload.
    const vm = env.t.sim.state.vm(vmid)!;
    env.t.sim.state.putIso(vm.node, SEED_STORAGE, 'hand-c-seed.iso', new Uint8Array(4096).fill(7));
    const undo = await env.manager.wait(env.manager.reclaim({ clusterId: 'sim', targets: [{ vmid, name: 'hand-c' }] }).taskIds[0]!);
    expect(undo.state).toBe('failed');
    expect(undo.error?.kind).toBe('permanent');
    expect(undo.error?.message).toMatch(/hand-c \(VM \d+\)'s seed was written again.*after its release.*the Kubernetes operator has adopted it/);
    expect(markOf(env, vmid).uid).toBe('');
    // Kept: the next Undo is refused before any task, and the proxy stays released.
    const count = env.manager.list().length;
    expect(() => env!.manager.reclaim({ clusterId: 'sim', targets: [{ vmid, name: 'hand-c' }] })).toThrow(/the Kubernetes operator has adopted it/);
    expect(env.manager.list().length).toBe(count);
    expect(env.manager.releasedAs('sim', vmid, 'hand-c')).toBeDefined();
  });

  it('refuses, before any task, a proxy the app did not make, an Undo it did not release, and a release without a seed fails with the mark kept', async () => {
    env = await demo();
    const theirs = [...env.t.sim.state.vms.values()].find((v) => parseMark(String(v.config.description)).managed && v.config.name);
    const count = env.manager.list().length;
    await expect(env.manager.release({ clusterId: 'sim', targets: [{ vmid: theirs!.vmid, name: String(theirs!.config.name) }] })).rejects.toThrow(
      /Egress Desk did not make it/,
    );
    expect(() => env!.manager.reclaim({ clusterId: 'sim', targets: [{ vmid: theirs!.vmid, name: String(theirs!.config.name) }] })).toThrow(/did not release it/);
    expect(env.manager.list().length).toBe(count);

    const vmid = await madeHere(env, 'hand-b', USER_DATA);
    env.t.sim.state.vm(vmid)!.config.ide2 = `${SEED_STORAGE}:iso/other-seed.iso,media=cdrom`;
    const uid = markOf(env, vmid).uid;
    const r = await env.manager.release({ clusterId: 'sim', targets: [{ vmid, name: 'hand-b' }] });
    const failed = await env.manager.wait(r.taskIds[0]!);
    expect(failed.state).toBe('failed');
    expect(failed.error?.message).toMatch(/has no seed proxy-seeds:iso\/hand-b-seed.iso on ide2/);
    expect(markOf(env, vmid).uid).toBe(uid);
  });
});

describe('manifests taken in', () => {
  it('makes the seeds’ sample Proxy as the app’s own proxy, with its name, node, template and cloud-init byte for byte', async () => {
    env = await demo();
    const profile = { ...env.t.cluster.profile, name: 'sim' } as unknown as ProfileSummary;
    const deps = { profile: () => profile, createProxies: env.manager.createProxies };
    // The demo's catalogue names its templates t9001…: the sample's image key is the operator's, so it is mapped by hand, as a user would.
    const yaml = readFileSync(SAMPLE, 'utf8').replace('image: debian-13', 'image: t9001');
    const misfit = await importManifests({ clusterId: 'sim', yaml: yaml.replace('machineType: small', 'machineType: huge'), create: true }, deps);
    expect(misfit.problems.join(' ')).toMatch(/machine type "huge" is not one of sim's/);
    expect(misfit.taskIds).toEqual([]);
    const r = await importManifests({ clusterId: 'sim', yaml, create: true }, deps);
    expect(r.problems, r.problems.join(' ')).toEqual([]);
    const done = await env.manager.wait(r.taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    const vm = [...env.t.sim.state.vms.values()].find((v) => v.config.name === 'proxy-proxmox-sample')!;
    expect(vm.node ?? 'pv1-1').toBe('pv1-1');
    const uid = markOf(env, vm.vmid).uid;
    expect(env.manager.proxyOrigin('sim', uid)).toMatchObject({ template: 't9001', machineType: 'small' });
    const kept = await env.manager.keptSeed('sim', uid);
    expect(kept?.userData).toMatch(/^#cloud-config\npackages:\n  - squid\n/);
  });
});
