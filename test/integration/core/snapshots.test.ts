/**
 * Issue 25 (point 2's foundation): the core's snapshot operations over the simulator and the real client, on every
 * simulated release. What a user would notice: whether the app says a proxy can be snapshotted (and names the disk and
 * storage when not), that its own snapshot is listed as its own, that a rollback brings the old settings back and keeps
 * the mark, that a delete removes it, and each refusal in words with its class.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, ownSnapshot, snapshotName, type Provider } from '../../../main/core';
import { minimalCluster, proxyVm, PVE_VERSIONS, type PveVersion } from '../../../main/simulator';
import type { ClusterDefinition } from '../../../main/simulator/types';
import { simProvider, variantProvider, type SimProvider } from './sim-provider';

const GiB = 1024 ** 3;
const UID = '5e2b1c4d-7a8f-4e3b-9c1d-0f2e3a4b5c6d';
/** May snapshot, not power the VM (qemu-server 7ba9640b: 9.2 checks VM.PowerMgmt for a rollback with start). */
const SNAPPER = { tokenId: 'snapper@pve!snap', acl: { '/': ['VM.Audit', 'VM.Snapshot', 'Datastore.Audit', 'Sys.Audit'] } };

function dataset(): ClusterDefinition {
  const d = minimalCluster();
  d.nodes[0]!.storages.push(
    { storage: 'vmdir', type: 'dir', content: 'images', totalBytes: 100 * GiB },
    { storage: 'nas', type: 'nfs', content: 'images', totalBytes: 500 * GiB },
    { storage: 'thick', type: 'lvm', content: 'images,rootdir', totalBytes: 500 * GiB },
  );
  return d;
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (!isProviderError(e)) throw e;
    return { kind: e.kind, code: e.code, message: e.message, hint: e.hint };
  }
  throw new Error('expected a refusal');
}

describe.each(PVE_VERSIONS)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  let provider: Provider;
  let nextVmid = 160000;
  beforeAll(async () => {
    env = await simProvider({
      version,
      dataset: dataset(),
      tokenName: 'admin',
      timeScale: 0.001,
      agentDelayMs: 0,
      tokens: { snapper: SNAPPER },
    });
    provider = env.provider;
  });
  afterAll(async () => env?.close());

  /** A proxy whose boot disk is `scsi0` (efidisk0 stays on local-lvm unless given). */
  function place(scsi0?: (vmid: number) => string, power: 'running' | 'stopped' = 'stopped', efidisk0?: (vmid: number) => string) {
    const vmid = nextVmid++;
    const name = `proxy-snap-${vmid}`;
    const vm = proxyVm(vmid, name, UID, power);
    if (scsi0) vm.config.scsi0 = scsi0(vmid);
    if (efidisk0) vm.config.efidisk0 = efidisk0(vmid);
    env.sim.state.addVm('pv1-1', vm);
    return { vmid, id: `vms/${vmid}/${name}` };
  }
  const changing = (since: number) =>
    env.sim.requests.records.slice(since).filter((r) => r.method !== 'GET' && r.rawPath.includes('/snapshot'));

  it('says an LVM-thin proxy (EFI disk too, seed CD-ROM skipped) can snapshot', async () => {
    const { id } = place();
    const s = await provider.snapshotSupport(id);
    expect(s.possible).toBe(true);
    expect(s.disks.map((d) => d.slot).sort()).toEqual(['efidisk0', 'scsi0']);
  });

  it('refuses raw on a directory storage in words naming the disk and storage, and sends nothing', async () => {
    const { id } = place((v) => `vmdir:${v}/vm-${v}-disk-1.raw,size=4G`);
    const s = await provider.snapshotSupport(id);
    expect(s.possible).toBe(false);
    expect(s.message).toContain("scsi0 is a raw volume on directory storage 'vmdir'");
    const since = env.sim.requests.records.length;
    const r = await refusal(provider.createSnapshot(id, { kind: 'reconfigure', change: 'cores 1 → 2' }));
    expect(r).toMatchObject({ kind: 'permanent', code: 'snapshot-unsupported' });
    expect(r.message).toContain("'vmdir'");
    expect(changing(since)).toEqual([]);
  });

  it('refuses plain (thick) LVM, even for the EFI disk alone', async () => {
    const { id } = place(undefined, 'stopped', (v) => `thick:vm-${v}-disk-0,efitype=4m,size=4M`);
    const s = await provider.snapshotSupport(id);
    expect(s.possible).toBe(false);
    expect(s.message).toContain("efidisk0 is a raw volume on LVM (thick) storage 'thick'");
    expect(s.disks.find((d) => d.slot === 'scsi0')?.ok).toBe(true);
  });

  it('snapshots qcow2 on NFS; the list shows it as the app’s own, with its description and as the parent', async () => {
    const { id, vmid } = place((v) => `nas:${v}/vm-${v}-disk-1.qcow2,size=4G`, 'running');
    expect((await provider.snapshotSupport(id)).possible).toBe(true);
    const made = await provider.createSnapshot(id, { kind: 'reconfigure', change: 'cores 1 → 2' });
    expect(ownSnapshot(made.name)?.kind).toBe('reconfigure');
    const list = await provider.snapshots(id);
    expect(list.snapshots).toMatchObject([{ name: made.name, ours: true, kind: 'reconfigure', withRam: false }]);
    expect(list.snapshots[0]!.description).toBe('Taken by Egress Desk before a reconfigure: cores 1 → 2');
    expect(list.currentParent).toBe(made.name);
    expect(env.sim.state.vm(vmid)!.lock).toBeUndefined();
  });

  it('rolls back to the old settings, keeps the current mark, stops the VM unless asked to start it; then deletes it', async () => {
    const { id, vmid } = place(undefined, 'running');
    const made = await provider.createSnapshot(id, { kind: 'reconfigure', change: 'memory 1024 → 4096' });
    const vm = env.sim.state.vm(vmid)!;
    vm.config.memory = '4096';
    vm.config.cores = 4;
    vm.config.description = `${String(vm.config.description)}\nnotes written after the snapshot`;
    await provider.rollbackSnapshot(id, made.name);
    expect(vm.config.memory).toBe('1024');
    expect(vm.config.cores).toBe(1);
    expect(String(vm.config.description)).toContain('notes written after the snapshot');
    expect(String(vm.config.description)).toContain(`proxy-operator-uid=${UID}`);
    expect(vm.power).toBe('stopped');
    await provider.rollbackSnapshot(id, made.name, { start: true });
    expect(vm.power).toBe('running');
    await provider.deleteSnapshot(id, made.name);
    expect((await provider.snapshots(id)).snapshots).toEqual([]);
    expect(vm.parent).toBeUndefined();
  });

  it('lists someone else’s snapshot read-only: rollback and delete are refused with nothing sent', async () => {
    const { id, vmid } = place();
    env.sim.state.vm(vmid)!.snapshots = { 'before-upgrade': { config: {}, snaptime: 1_790_000_000, description: 'by hand' } };
    const list = await provider.snapshots(id);
    expect(list.snapshots).toMatchObject([{ name: 'before-upgrade', ours: false, description: 'by hand' }]);
    const since = env.sim.requests.records.length;
    expect(await refusal(provider.deleteSnapshot(id, 'before-upgrade'))).toMatchObject({ kind: 'permanent', code: 'snapshot-not-ours' });
    expect(await refusal(provider.rollbackSnapshot(id, 'before-upgrade'))).toMatchObject({ code: 'snapshot-not-ours' });
    expect(changing(since)).toEqual([]);
  });

  it('never stores a known secret in the snapshot’s description (sentinel)', async () => {
    const { id, vmid } = place();
    const secret = env.sim.tokens.admin!.secret;
    const made = await provider.createSnapshot(id, { kind: 'rotate', change: `token ${secret} replaced` });
    const stored = env.sim.state.vm(vmid)!.snapshots![made.name]!.description!;
    expect(stored).toContain('Taken by Egress Desk before a credential rotation: token');
    expect(stored).not.toContain(secret);
  });

  it('a snapshot task that never ends is transient once its budget is spent, and says so', async () => {
    const { id, vmid } = place();
    const creds = env.sim.tokens.admin!;
    const token = { kind: 'secret' as const, tokenId: creds.tokenId, secret: () => creds.secret };
    const short = variantProvider(env.sim, { token, budgets: { snapshotMs: 100 } });
    const removeHang = env.sim.faults.hangTask({ type: 'qmsnapshot', id: vmid }, 1);
    try {
      const r = await refusal(short.provider.createSnapshot(id, { kind: 'reconfigure', change: 'x' }));
      expect(r.kind).toBe('transient');
      expect(r.message).toMatch(/qmsnapshot|task/i);
    } finally {
      removeHang();
      await short.close();
    }
  });

  it('refuses a locked VM as transient, naming the lock', async () => {
    const { id, vmid } = place();
    env.sim.faults.holdLock(vmid, 'backup');
    const r = await refusal(provider.createSnapshot(id, { kind: 'migrate', change: 'to pv1-2' }));
    expect(r.kind).toBe('transient');
    expect(r.message).toContain('locked (backup)');
    expect(env.sim.state.vm(vmid)!.snapshots ?? {}).toEqual({});
  });

  it('refuses a name already used, in words, as permanent', async () => {
    const { id } = place();
    const name = snapshotName('rotate', new Date('2026-12-02T15:52:00Z'));
    expect(name).toBe('egressdesk-20261202-155200-rotate');
    await provider.createSnapshot(id, { kind: 'rotate', change: 'new proxy password', name });
    const r = await refusal(provider.createSnapshot(id, { kind: 'rotate', change: 'again', name }));
    expect(r).toMatchObject({ kind: 'permanent', code: 'snapshot-name-taken' });
    expect(r.message).toContain(`already has a snapshot named ${name}`);
  });

  it('a rollback or delete of a snapshot that is gone is not-found', async () => {
    const { id } = place();
    const gone = snapshotName('userdata', new Date('2026-01-01T00:00:00Z'));
    expect((await refusal(provider.deleteSnapshot(id, gone))).kind).toBe('not-found');
    expect((await refusal(provider.rollbackSnapshot(id, gone))).kind).toBe('not-found');
  });

  it('a token without VM.Snapshot is refused permanently, the privilege named', async () => {
    const { id } = place();
    const operator = variantProvider(env.sim);
    try {
      const r = await refusal(operator.provider.createSnapshot(id, { kind: 'reconfigure', change: 'x' }));
      expect(r).toMatchObject({ kind: 'permanent', code: 'missing-privilege' });
      expect(r.message).toContain('VM.Snapshot');
      expect(r.hint).toContain('Grant VM.Snapshot');
    } finally {
      await operator.close();
    }
  });

  it(`a rollback that starts the VM needs VM.PowerMgmt ${version === '9.2' ? 'too (9.2)' : 'not (before 9.1.10)'}`, async () => {
    const { id, vmid } = place();
    const creds = env.sim.tokens.snapper!;
    const snapper = variantProvider(env.sim, { token: { kind: 'secret', tokenId: creds.tokenId, secret: () => creds.secret } });
    try {
      const made = await snapper.provider.createSnapshot(id, { kind: 'userdata', change: 'new user-data' });
      const started = snapper.provider.rollbackSnapshot(id, made.name, { start: true });
      if (version === '9.2') {
        const r = await refusal(started);
        expect(r).toMatchObject({ kind: 'permanent', code: 'missing-privilege' });
        expect(r.message).toContain('VM.PowerMgmt');
        expect(env.sim.state.vm(vmid)!.power).toBe('stopped');
      } else {
        await started;
        expect(env.sim.state.vm(vmid)!.power).toBe('running');
      }
    } finally {
      await snapper.close();
    }
  });
});
