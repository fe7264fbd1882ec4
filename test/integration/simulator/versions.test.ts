/**
 * The simulator's version profiles (main/simulator/versions.ts), each
 * difference tied to the source the module cites, seen raw (no client code)
 * and through the real client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, fixtureJson } from '../../../fixtures';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import { AgentRefusedError } from '../../../main/core/pve/errors';
import { createLogger } from '../../../main/log/logger';
import {
  goodTemplate,
  minimalCluster,
  startSimulator,
  type PveVersion,
  type Simulator,
  type StorageDefinition,
} from '../../../main/simulator';
import { pve } from './raw';

const VMID = 9001;
const GiB = 2 ** 30;
/** A thick LVM storage with qcow2 volumes (PVE 9's snapshot-as-volume-chain); not in StorageDefinition's type list yet, see the report. */
const LVM = { storage: 'lvm-shared', type: 'lvm' as StorageDefinition['type'], content: 'images', totalBytes: 500 * GiB };

function dataset() {
  const def = minimalCluster();
  const node = def.nodes[0]!;
  node.storages.push(LVM);
  node.vms.push(
    { vmid: 120, config: { name: 'on-lvm-stopped', scsi0: 'lvm-shared:vm-120-disk-0.qcow2,size=8G' }, power: 'stopped' },
    { vmid: 121, config: { name: 'on-lvm-running', scsi0: 'lvm-shared:vm-121-disk-0.qcow2,size=8G' }, power: 'running' },
    { vmid: 122, config: { ...goodTemplate().config, name: 'agent-blocked', agent: 1 }, power: 'running', agent: 'command-disabled' },
  );
  return def;
}

const sims = new Map<PveVersion, { sim: Simulator; client: PveClient }>();
beforeAll(async () => {
  for (const version of ['7.4', '8.4', '9.2'] as const) {
    const sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 0, dataset: dataset(), version });
    const admin = sim.tokens.admin!;
    const client = createPveClient({
      baseUrl: sim.url,
      tls: { mode: 'ca', caPem: sim.caPem ?? '' },
      token: { kind: 'secret', tokenId: admin.tokenId, secret: () => admin.secret },
      logger: createLogger({ sinks: [] }),
    });
    sims.set(version, { sim, client });
  }
});
afterAll(async () => {
  for (const { sim, client } of sims.values()) {
    await client.close();
    await sim.close();
  }
});
const on = (v: PveVersion) => sims.get(v)!;

describe('the default is the captured host', () => {
  it('9.2 answers /version with the Phase 0 body, byte for byte', async () => {
    const sim = await startSimulator({ timeScale: 0.001 });
    try {
      expect((await pve(sim, 'GET', '/version')).body).toBe(fixture('version').body);
    } finally {
      await sim.close();
    }
  });
});

describe('/version (pve-manager PVE/API2.pm; repoid 8 hex before 0e77456f)', () => {
  it.each([
    ['7.4', 'version_pve74'],
    ['8.4', 'version_pve84'],
    ['9.2', 'version'],
  ] as const)('%s answers like %s', async (version, name) => {
    expect((await pve(on(version).sim, 'GET', '/version')).body).toBe(fixture(name).body);
    expect(await on(version).client.version()).toEqual(fixtureJson<{ data: unknown }>(name)!.data);
  });
});

describe('resize (qemu-server 606d9d76, a task from 8.0.2)', () => {
  it('7.4: grows the disk inside the request and answers {"data":null}', async () => {
    const { sim, client } = on('7.4');
    const answer = await pve(sim, 'PUT', `/nodes/pv1-1/qemu/${VMID}/resize`, { form: { disk: 'scsi0', size: '+1G' } });
    expect(answer.body).toBe(fixture('resize_pve74_response').body);
    expect(sim.state.vm(VMID)!.config.scsi0).toMatch(/size=4G/);
    expect(await client.resize('pv1-1', VMID, 'scsi0', '5G')).toBeNull();
    expect(sim.state.vm(VMID)!.config.scsi0).toMatch(/size=5G/);
    expect(await client.resize('pv1-1', VMID, 'scsi0', '5G')).toBeNull(); // the same size: a no-op
    expect(sim.requests.records.filter((r) => r.route.endsWith('/resize')).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('7.4: a shrink, a missing disk and a lock fail at once with the task texts as 500s', async () => {
    const { sim } = on('7.4');
    const shrink = await pve(sim, 'PUT', `/nodes/pv1-1/qemu/${VMID}/resize`, { form: { disk: 'scsi0', size: '1G' } });
    expect([shrink.status, shrink.reason]).toEqual([500, 'shrinking disks is not supported']);
    const missing = await pve(sim, 'PUT', `/nodes/pv1-1/qemu/${VMID}/resize`, { form: { disk: 'scsi7', size: '1G' } });
    expect(missing.status).toBe(500);
    expect(missing.reason).toContain('scsi7');
    sim.faults.holdLock(VMID, 'backup');
    const locked = await pve(sim, 'PUT', `/nodes/pv1-1/qemu/${VMID}/resize`, { form: { disk: 'scsi0', size: '9G' } });
    sim.faults.releaseLock(VMID);
    expect([locked.status, locked.reason]).toEqual([500, 'VM is locked (backup)']);
  });

  it.each(['8.4', '9.2'] as const)('%s: a qmresize task (F20)', async (version) => {
    const answer = await on(version).client.resize('pv1-1', VMID, 'scsi0', '+1G');
    expect(answer).toMatch(/^UPID:pv1-1:.*:qmresize:9001:/);
  });
});

describe('the guest agent refusing a command (qemu-server 1928c201: the same on every release)', () => {
  it.each(['7.4', '8.4', '9.2'] as const)('%s: 200 with result.error, read as the agent refused', async (version) => {
    const { sim, client } = on(version);
    const raw = await pve(sim, 'GET', '/nodes/pv1-1/qemu/122/agent/network-get-interfaces');
    expect(raw.body).toBe(fixture('agent_command_disabled').body);
    const err = await client.agentNetworkInterfaces('pv1-1', 122).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentRefusedError);
    expect(err).toMatchObject({
      failureClass: 'permanent',
      message: 'agent refused: CommandNotFound: The command guest-network-get-interfaces has been disabled for this instance',
    });
  });
});

describe('approximate-size (pve-storage 9.1.5: inactive qcow2 LVs on lvm storages)', () => {
  const listing = (v: PveVersion) => pve(on(v).sim, 'GET', '/nodes/pv1-1/storage/lvm-shared/content');

  it('9.2: the stopped VM’s volume has approximate-size and no size; the running one keeps size', async () => {
    const entries = (await listing('9.2')).data as Record<string, unknown>[];
    const byVmid = new Map(entries.map((e) => [e.vmid, e]));
    expect(byVmid.get(120)).toMatchObject({ format: 'qcow2', 'approximate-size': 8 * GiB });
    expect(byVmid.get(120)).not.toHaveProperty('size');
    expect(byVmid.get(121)).toMatchObject({ format: 'qcow2', size: 8 * GiB });
    const read = await on('9.2').client.storageContent('pv1-1', 'lvm-shared');
    expect(read.find((v) => v.vmid === 120)).toMatchObject({ size: 8 * GiB, sizeKind: 'approximate' });
  });

  it.each(['7.4', '8.4'] as const)('%s: always size', async (version) => {
    for (const e of (await listing(version)).data as Record<string, unknown>[]) {
      expect(e).toHaveProperty('size');
      expect(e).not.toHaveProperty('approximate-size');
    }
  });

  it('9.2: never on lvmthin, whatever the power state (LvmThinPlugin has its own list_images)', async () => {
    for (const e of (await pve(on('9.2').sim, 'GET', '/nodes/pv1-1/storage/local-lvm/content')).data as Record<string, unknown>[])
      expect(e).not.toHaveProperty('approximate-size');
  });
});

describe('node status and resources (pve-manager 20ad4e0e, 8fd3420b, e3ac6efa)', () => {
  it.each([
    ['7.4', false, false, false],
    ['8.4', true, false, false],
    ['9.2', true, true, true],
  ] as const)('%s: current-kernel %s, memory.available %s, memhost %s', async (version, kernel, available, memhost) => {
    const { sim, client } = on(version);
    const status = (await pve(sim, 'GET', '/nodes/pv1-1/status')).data as Record<string, Record<string, unknown>>;
    expect('current-kernel' in status).toBe(kernel);
    expect('available' in status.memory!).toBe(available);
    expect(status.pveversion).toMatch(new RegExp(`^pve-manager/${version.replace('.', '\\.')}`));
    expect((await client.nodeStatus('pv1-1')).kernel).toBe('7.0.14-17-pve');
    const vms = (await pve(sim, 'GET', '/cluster/resources', { query: { type: 'vm' } })).data as Record<string, unknown>[];
    expect(vms.some((e) => 'memhost' in e)).toBe(memhost);
    expect((await client.clusterResources('vm')).length).toBe(vms.length);
  });
});
