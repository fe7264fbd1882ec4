/**
 * The simulator's offline migration (issue 11, docs/simulator.md Physics):
 * qemu-server migrate_vm's synchronous refusals, the `qmigrate` task holding
 * `lock: migrate`, its duration from the local disks' data over the slower
 * storage, the config moving to the target at the end, and the aborted
 * migrations (a local ISO in a CD-ROM, a target that does not answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureMessage } from '../../../fixtures';
import { goodTemplate, plainVm, SEED_STORAGE, startSimulator, type ClusterDefinition, type Simulator } from '../../../main/simulator';
import { storages } from '../../../main/simulator/datasets';
import { pve, waitTask } from './raw';

const bridges = [{ iface: 'vmbr0', vlanAware: true }];
const cluster = (): ClusterDefinition => ({
  clusterName: 'm',
  nodes: [
    { node: 'pv1-1', storages: storages(), bridges, vms: [goodTemplate(9001)] },
    { node: 'pv1-2', storages: storages(), bridges, vms: [] },
    { node: 'pv1-3', storages: storages().filter((s) => s.storage !== 'local-lvm'), bridges, vms: [] },
    { node: 'pv1-4', online: false, storages: storages(), bridges, vms: [] },
  ],
  storages: [{ storage: 'nas', type: 'nfs', content: 'images,iso', totalBytes: 1e13 }],
});

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: cluster(), timeScale: 0.001 });
});
afterAll(async () => sim?.close());

let next = 500;
/** A stopped VM like a fresh clone of the template: disks on pv1-1's local-lvm, 420 MiB of data. */
function stoppedVm(extra: Record<string, string> = {}, dataBytes = 420 * 1024 ** 2) {
  const vmid = next++;
  const vm = sim.state.addVm('pv1-1', { ...plainVm(vmid, `proxy-m${vmid}`), dataBytes: { scsi0: dataBytes } });
  Object.assign(vm.config, extra);
  return vmid;
}
const migrate = (vmid: number, target: string, token = 'admin') =>
  pve(sim, 'POST', `/nodes/pv1-1/qemu/${vmid}/migrate`, { form: { target, 'with-local-disks': 1 }, token });
const aborted = fixtureJson<{ data: { exitstatus: string } }>('sim_task_migrate_aborted')!.data.exitstatus;

describe('migrate refusals, before any task', () => {
  it('target is the local node: 400 with the field text', async () => {
    const a = await migrate(stoppedVm(), 'pv1-1');
    expect(a.status).toBe(400);
    expect(a.json?.errors).toEqual({ target: 'target is local node.' });
  });

  it('a running VM without online', async () => {
    const vmid = stoppedVm();
    sim.state.setPower(vmid, 'running');
    const a = await migrate(vmid, 'pv1-2');
    expect([a.status, a.reason]).toEqual([500, fixtureMessage('sim_err_migrate_running')]);
  });

  it("the target lacks a volume's storage: pve-storage's node check", async () => {
    const a = await migrate(stoppedVm(), 'pv1-3');
    expect([a.status, a.reason]).toEqual([500, "storage 'local-lvm' is not available on node 'pv1-3'"]);
  });

  it('a locked VM', async () => {
    const vmid = stoppedVm();
    sim.state.setLock(vmid, 'backup');
    expect((await migrate(vmid, 'pv1-2')).reason).toBe('VM is locked (backup)');
  });

  it('needs VM.Migrate on /vms/{vmid}', async () => {
    const a = await migrate(stoppedVm(), 'pv1-2', 'auditor');
    expect(a.status).toBe(403);
    expect(a.reason).toContain('VM.Migrate');
  });
});

describe('the qmigrate task', () => {
  it('holds lock migrate, copies the local disks over the slower storage, then the VM is the target’s', async () => {
    // 90 GB of data: 200 simulated s, 200 real ms at this time scale, long enough to see the lock.
    const vmid = stoppedVm({}, 90e9);
    const expected = sim.physics.migrateSeconds(vmid, 'pv1-2');
    // overhead 2 s + the data at 450 MB/s (local-lvm on both ends)
    expect(expected).toBeCloseTo(2 + 90e9 / 450e6, 6);
    const a = await migrate(vmid, 'pv1-2');
    expect(a.status).toBe(200);
    expect(a.data).toMatch(/^UPID:pv1-1:[^:]+:[^:]+:[^:]+:qmigrate:\d+:/);
    const listed = await pve(sim, 'GET', '/cluster/resources', { query: { type: 'vm' } });
    expect((listed.data as { vmid: number; lock?: string; node: string }[]).find((r) => r.vmid === vmid)).toMatchObject({
      lock: 'migrate',
      node: 'pv1-1',
    });
    expect((await pve(sim, 'PUT', `/nodes/pv1-1/qemu/${vmid}/config`, { form: { cores: 1 } })).reason).toBe('VM is locked (migrate)');
    const status = await waitTask(sim, a.data as string);
    expect(status.exitstatus).toBe('OK');
    const task = sim.tasks.get(a.data as string)!;
    expect((task.simEnd! - task.simStart) / 1000).toBeGreaterThanOrEqual(expected * 0.99);
    expect((task.simEnd! - task.simStart) / 1000).toBeLessThan(expected * 1.5);
    expect(sim.state.vm(vmid)).toMatchObject({ node: 'pv1-2' });
    expect(sim.state.vm(vmid)?.lock).toBeUndefined();
    expect((await pve(sim, 'GET', `/nodes/pv1-2/qemu/${vmid}/config`)).status).toBe(200);
    expect((await pve(sim, 'GET', `/nodes/pv1-1/qemu/${vmid}/config`)).status).toBe(500);
  });

  it('the slower storage sets the pace: a local disk onto an nfs target would not, the same id is kept', () => {
    const vmid = stoppedVm();
    sim.state.vm(vmid)!.config.scsi0 = 'nas:500/vm-500-disk-0.raw,size=32G';
    // A disk on a shared storage does not move at all.
    expect(sim.physics.migrateCopies(sim.state.vm(vmid)!, 'pv1-2')).toEqual([]);
    expect(sim.physics.migrateSeconds(vmid, 'pv1-2')).toBeCloseTo(2, 6);
  });

  it('a seed ISO on a local storage in a CD-ROM aborts the migration; the VM stays, unlocked', async () => {
    const vmid = stoppedVm({ ide2: `${SEED_STORAGE}:iso/proxy-m-seed.iso,media=cdrom` });
    const a = await migrate(vmid, 'pv1-2');
    const status = await waitTask(sim, a.data as string);
    expect(status.exitstatus).toBe(aborted);
    expect(sim.tasks.get(a.data as string)!.log).toEqual(
      expect.arrayContaining([
        `WARN: can't migrate local disk '${SEED_STORAGE}:iso/proxy-m-seed.iso': local cdrom image`,
        "ERROR: Problem found while scanning volumes - can't migrate VM - check log",
      ]),
    );
    expect(sim.state.vm(vmid)).toMatchObject({ node: 'pv1-1' });
    expect(sim.state.vm(vmid)?.lock).toBeUndefined();
  });

  it('a target node that does not answer aborts the migration', async () => {
    const vmid = stoppedVm();
    const a = await migrate(vmid, 'pv1-4');
    const status = await waitTask(sim, a.data as string);
    expect(status.exitstatus).toBe(aborted);
    expect(sim.tasks.get(a.data as string)!.log.join('\n')).toContain("Can't connect to destination address using public key");
    expect(sim.state.vm(vmid)).toMatchObject({ node: 'pv1-1' });
  });
});
