/**
 * A create whose machine type grows the template's disk checks, after the
 * template is read and before the clone, that the storage the new disk
 * lands on has room for the whole new size (issue 22's rule for reconfigure,
 * here for create): refused in words, with nothing cloned, uploaded or
 * left behind; a machine type that keeps the template's disk sends no
 * storage read at all. Issue 21: one read serves the creates that follow on
 * that storage, each counting the growth of those before it; a create the
 * shared read has no room left for reads the storage again, and only that
 * read may refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import { storageUsage } from '../../../main/simulator/views';
import { simProvider, type SimProvider } from './sim-provider';

const GIB = 2 ** 30;
let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

const request = (name: string, machineType: 'big' | 'small') => ({
  uid: `uid-${name}`,
  name,
  placement: { machineType, image: 'debian-13' },
  cloudInit: '#cloud-config\n',
});
const vmsNamed = (name: string) => [...env.sim.state.vms.values()].filter((vm) => vm.config.name === name);

describe('create: room for the disk it grows', () => {
  it('refuses an 8 GiB disk on a pool with 6 GiB free before the clone, in words, leaving nothing', async () => {
    const pool = env.sim.state.node('pv1-1')!.storages.get('local-lvm')!;
    const saved = { totalBytes: pool.totalBytes, usedBytes: pool.usedBytes };
    pool.totalBytes = 100 * GIB;
    pool.usedBytes = 94 * GIB;
    try {
      const since = env.sim.requests.records.length;
      const e = await env.provider.create(request('proxy-room', 'big')).catch((x: unknown) => x);
      expect(isProviderError(e) && { kind: e.kind, code: e.code }).toEqual({ kind: 'permanent', code: 'disk-no-room' });
      const words = isProviderError(e) ? `${e.message} ${e.hint}` : '';
      expect(words).toContain("the new proxy proxy-room's disk (a copy of template 9001's 3.0 GiB) would grow from 3.0 GiB to 8 GiB");
      expect(words).toContain(`storage local-lvm on pv1-1 has ${(storageUsage(pool).avail / GIB).toFixed(1)} GiB free; nothing was sent`);
      expect(words).toContain('Choose a machine type whose disk is at most 6 GiB');
      const sent = env.sim.requests.records.slice(since);
      expect(sent.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(sent.map((r) => r.route)).toContain('/nodes/{node}/storage/{storage}/status');
      expect(vmsNamed('proxy-room')).toEqual([]);
    } finally {
      Object.assign(pool, saved);
    }
  });

  it('with room, the same create runs; a machine type that keeps the disk reads no storage status', async () => {
    await env.provider.create(request('proxy-room-ok', 'big'));
    expect(String(vmsNamed('proxy-room-ok')[0]!.config.scsi0)).toContain('size=8G');
    const since = env.sim.requests.records.length;
    await env.provider.create(request('proxy-room-small', 'small'));
    expect(env.sim.requests.records.slice(since).map((r) => r.route)).not.toContain('/nodes/{node}/storage/{storage}/status');
  });
});

describe('create: one storage read for the creates that follow (issue 21)', () => {
  let own: SimProvider;
  beforeAll(async () => {
    own = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
  });
  afterAll(async () => own?.close());
  const statusReads = (since: number) =>
    own.sim.requests.records.slice(since).filter((r) => r.route === '/nodes/{node}/storage/{storage}/status').length;

  it('counts the growth of the creates before it against the shared read, and reads again when it is used up', async () => {
    const pool = own.sim.state.node('pv1-1')!.storages.get('local-lvm')!;
    pool.totalBytes = 100 * GIB;
    // 9 GiB free: room for one 8 GiB disk grown from 3 GiB (5 GiB), not for two by one read.
    pool.usedBytes = 91 * GIB;
    let since = own.sim.requests.records.length;
    await own.provider.create(request('proxy-share-a', 'big'));
    await own.provider.create(request('proxy-share-b', 'big'));
    expect(statusReads(since)).toBe(2);
    // Room for many: the second create of the pair is served by the first one's read.
    pool.usedBytes = 20 * GIB;
    await own.provider.create(request('proxy-share-c', 'big'));
    since = own.sim.requests.records.length;
    await own.provider.create(request('proxy-share-d', 'big'));
    expect(statusReads(since)).toBe(0);
    for (const name of ['proxy-share-a', 'proxy-share-b', 'proxy-share-c', 'proxy-share-d'])
      expect(String([...own.sim.state.vms.values()].find((vm) => vm.config.name === name)?.config.scsi0)).toContain('size=8G');
  });
});
