/**
 * The client against the simulator: a whole proxy life cycle through every
 * write endpoint, the reads the app adds beyond the operator, and the
 * failures the simulator reproduces from the facts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import { classifyApiFailure, isConfigAlreadyExists, isConfigMissing, isNoSuchStorage } from '../../../main/core/pve/errors';
import { parseUpid, taskSucceeded } from '../../../main/core/pve/upid';
import { createMemoryLogger } from '../../../main/log/logger';
import { startSimulator, type Simulator } from '../../../main/simulator';
import { failureOf } from './harness';

let sim: Simulator;
let client: PveClient;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'minimal', timeScale: 0.001, agentDelayMs: 1_000 });
  const operator = sim.tokens.operator!;
  client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem! },
    token: { kind: 'secret', tokenId: operator.tokenId, secret: () => operator.secret },
    logger: createMemoryLogger(),
  });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

async function waitTask(upid: string): Promise<string | undefined> {
  const node = parseUpid(upid).node;
  for (let i = 0; i < 500; i++) {
    const t = await client.taskStatus(node, upid);
    if (t.status === 'stopped') return t.exitstatus;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${upid} did not finish`);
}

const VMID = 199_999;

describe('client against the simulator', () => {
  it('reads the cluster the app shows', async () => {
    expect((await client.version()).version).toMatch(/^9\./);
    expect((await client.nodes()).map((n) => n.node)).toContain('pv1-1');
    expect((await client.clusterStatus()).some((e) => e.type === 'node' && e.name === 'pv1-1')).toBe(true);
    const vms = await client.clusterResources('vm');
    expect(vms.some((r) => r.vmid === 9001 && r.template)).toBe(true);
    const everything = await client.clusterResources();
    expect(everything.some((r) => r.type === 'node')).toBe(true);
    const status = await client.nodeStatus('pv1-1');
    expect(status.kernel).toBeTruthy();
    const storages = await client.storageList('pv1-1');
    expect(storages.find((s) => s.storage === 'proxy-seeds')?.content).toContain('iso');
    expect((await client.storageStatus('pv1-1', 'proxy-seeds')).active).toBe(true);
    expect((await client.network('pv1-1', 'bridge')).some((n) => n.type === 'bridge')).toBe(true);
    const perms = await client.permissions();
    expect(Object.keys(perms)).toContain('/');
  });

  it('runs a proxy life cycle: clone, seed, config, resize, start, address, stop, seed delete, destroy', async () => {
    const clone = await client.clone('pv1-1', 9001, { newid: VMID, name: 'proxy-simaaaaaaaaaaaaaa', description: 'managed=true', full: 1 });
    expect(taskSucceeded(await waitTask(clone))).toBe(true);
    expect((await client.taskLog('pv1-1', clone)).total).toBeGreaterThan(0);

    const iso = new Uint8Array(45_056).fill(7);
    expect(taskSucceeded(await waitTask(await client.uploadIso('pv1-1', 'proxy-seeds', 'proxy-simaaaaaaaaaaaaaa-seed.iso', iso)))).toBe(
      true,
    );
    const content = await client.storageContent('pv1-1', 'proxy-seeds', 'iso');
    const volid = content.find((v) => v.volid.endsWith('proxy-simaaaaaaaaaaaaaa-seed.iso'))!.volid;

    await client.setVmConfig('pv1-1', VMID, { ide2: `${volid},media=cdrom`, cores: 2, memory: 2048 });
    const config = await client.vmConfig('pv1-1', VMID);
    expect(config.cores).toBe('2');
    expect(config.ide2).toContain(volid);

    const disk = Object.keys(config).find((k) => /^scsi\d+$/.test(k)) ?? 'scsi0';
    expect(taskSucceeded(await waitTask((await client.resize('pv1-1', VMID, disk, '+1G'))!))).toBe(true); // 9.2: a task

    expect(taskSucceeded(await waitTask(await client.start('pv1-1', VMID)))).toBe(true);
    expect((await client.vmStatus('pv1-1', VMID)).status).toBe('running');
    let addresses: string[] = [];
    for (let i = 0; i < 200 && addresses.length === 0; i++) {
      const ifaces = await client.agentNetworkInterfaces('pv1-1', VMID).catch(() => []);
      addresses = ifaces.filter((f) => f.name !== 'lo').flatMap((f) => (f['ip-addresses'] ?? []).map((a) => a['ip-address']));
      if (addresses.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(addresses.length).toBeGreaterThan(0);

    expect(taskSucceeded(await waitTask(await client.stop('pv1-1', VMID)))).toBe(true);
    expect(taskSucceeded(await waitTask(await client.deleteVolume('pv1-1', 'proxy-seeds', volid)))).toBe(true);
    expect(taskSucceeded(await waitTask(await client.destroy('pv1-1', VMID)))).toBe(true);
    const gone = await failureOf(client.vmConfig('pv1-1', VMID));
    expect(isConfigMissing(gone)).toBe(true);
    expect(classifyApiFailure('get', gone)).toBe('not-found');
  });

  it('answers a clone onto a taken VMID with the F4 error', async () => {
    const err = await failureOf(client.clone('pv1-1', 9001, { newid: 100, name: 'proxy-x', description: '', full: 1 }));
    expect(isConfigAlreadyExists(err)).toBe(true);
  });

  it('answers a missing storage with the Phase 10 field error', async () => {
    const err = await failureOf(client.storageStatus('pv1-1', 'proxy-missing'));
    expect(isNoSuchStorage(err)).toBe(true);
    expect(classifyApiFailure('check', err)).toBe('permanent');
  });

  it('refuses a wrong secret with a permanent 401', async () => {
    const bad = createPveClient({
      baseUrl: sim.url,
      tls: { mode: 'pin', fingerprint: sim.fingerprint },
      token: { kind: 'secret', tokenId: sim.tokens.operator!.tokenId, secret: () => 'wrong-secret-000' },
      logger: createMemoryLogger(),
    });
    const err = await failureOf(bad.version());
    await bad.close();
    expect(err).toMatchObject({ name: 'ApiError', status: 401 });
    expect(classifyApiFailure('check', err)).toBe('permanent');
  });
});
