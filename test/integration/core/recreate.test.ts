/**
 * Issue 16: recreate over the simulator: the old VM is deleted and a new one created with the same name, image,
 * machine type and user-data under a new UID, as one operation; a rerun after the delete half converges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, recreatePhaseOf, type ProgressEvent, type RecreateStep } from '../../../main/core';
import { SEED_STORAGE } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const USER_DATA = '#cloud-config\nhostname: again\n';
const request = (uid: string, name: string) => ({
  uid,
  name,
  placement: { machineType: 'small', image: 'debian-13' },
  cloudInit: USER_DATA,
});
const markUid = (vmid: number) => /proxy-operator-uid=(.*)/.exec(String(env.sim.state.vm(vmid)?.config.description))?.[1];

describe('recreate', () => {
  it('deletes the old VM and creates the same proxy under a new UID, both halves in one operation', async () => {
    const oldId = await env.provider.create(request('aaaaaaaa-0000-4000-8000-000000000001', 'proxy-recreated'));
    const oldVmid = Number(oldId.split('/')[1]);
    const events: ProgressEvent[] = [];
    const r = await env.provider.recreate(oldId, request('aaaaaaaa-0000-4000-8000-000000000002', 'proxy-recreated'), {
      expect: { uid: 'aaaaaaaa-0000-4000-8000-000000000001' },
      onProgress: (e) => events.push(e),
    });
    const newVmid = Number(r.id.split('/')[1]);
    expect(newVmid).not.toBe(oldVmid);
    expect(env.sim.state.vm(oldVmid)).toBeUndefined();
    expect(env.sim.state.vm(newVmid)).toMatchObject({ power: 'running', config: expect.objectContaining({ name: 'proxy-recreated' }) });
    expect(markUid(newVmid)).toBe('aaaaaaaa-0000-4000-8000-000000000002');
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-recreated-seed.iso')).toBeDefined();
    expect(r.deleted?.destroyed).toEqual({ node: 'pv1-1', vmid: oldVmid });
    const done = events.filter((e) => e.phase === 'done').map((e) => e.step);
    expect(done.slice(0, 4)).toEqual(['lookup', 'stop', 'delete-seed', 'destroy']);
    // The seed goes up beside the clone (seed-beside-clone.ts): either may end first; configure follows both.
    expect(done.slice(4, 6).sort()).toEqual(['clone', 'upload-seed']);
    expect(done.slice(6)).toEqual(['configure', 'start', 'wait-running']);
    expect(events.every((e) => e.op === 'recreate')).toBe(true);
    expect(done.map((s) => recreatePhaseOf(s as RecreateStep))).toEqual([...Array(4).fill('delete'), ...Array(5).fill('create')]);
  });

  it('a rerun after the delete half (the old VM gone, the new one not made) creates it', async () => {
    const oldId = await env.provider.create(request('bbbbbbbb-0000-4000-8000-000000000001', 'proxy-half'));
    await env.provider.delete(oldId);
    const r = await env.provider.recreate(oldId, request('bbbbbbbb-0000-4000-8000-000000000002', 'proxy-half'));
    expect(markUid(Number(r.id.split('/')[1]))).toBe('bbbbbbbb-0000-4000-8000-000000000002');
  });

  it('a rerun once the new VM exists skips the delete half and adopts it', async () => {
    const newId = await env.provider.create(request('cccccccc-0000-4000-8000-000000000002', 'proxy-adopted'));
    const since = env.sim.requests.records.length;
    const r = await env.provider.recreate('vms/100001/proxy-adopted', request('cccccccc-0000-4000-8000-000000000002', 'proxy-adopted'));
    expect(r.id).toBe(newId);
    expect(env.sim.requests.records.slice(since).filter((x) => x.method !== 'GET')).toEqual([]);
  });

  it('refuses to delete a VM whose mark is not the one expected, creating nothing', async () => {
    const oldId = await env.provider.create(request('dddddddd-0000-4000-8000-000000000001', 'proxy-guarded'));
    const e = await env.provider
      .recreate(oldId, request('dddddddd-0000-4000-8000-000000000002', 'proxy-guarded'), { expect: { uid: 'not-it' } })
      .catch((x: unknown) => x);
    expect(isProviderError(e, 'permanent')).toBe(true);
    expect(env.sim.state.vm(Number(oldId.split('/')[1]))).toBeDefined();
  });

  it('refuses a recreate given the old VM’s own UID, with words and nothing written (issue 25)', async () => {
    const uid = 'eeeeeeee-0000-4000-8000-000000000001';
    const oldId = await env.provider.create(request(uid, 'proxy-same-uid'));
    const since = env.sim.requests.records.length;
    for (const options of [{ expect: { uid } }, {}]) {
      const e = await env.provider.recreate(oldId, request(uid, 'proxy-same-uid'), options).catch((x: unknown) => x);
      expect(isProviderError(e, 'invalid-input'), String(e)).toBe(true);
      expect((e as Error).message).toMatch(/a recreate needs a new UID/);
      expect((e as { hint: string }).hint).toMatch(/new UID/);
    }
    // Given the old UID beside it, nothing at all is sent; without it, only reads.
    expect(env.sim.requests.records.slice(since).filter((x) => x.method !== 'GET')).toEqual([]);
    expect(markUid(Number(oldId.split('/')[1]))).toBe(uid);
  });
});
