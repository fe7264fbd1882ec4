/**
 * Issue 25: the simulator's snapshot routes answer with Proxmox's words and HTTP codes (routes/vm-snapshot.ts, after
 * qemu-server API2/Qemu.pm and pve-guest-common AbstractConfig.pm): the name's 400, the reserved names' 500 before a
 * task, the privileges' 403, the refusals inside the task as its exitstatus, the lock and `snapstate` while it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalCluster, proxyVm, startSimulator, type Simulator } from '../../../main/simulator';
import { pve, waitTask } from './raw';

let sim: Simulator;
beforeAll(async () => {
  const dataset = minimalCluster();
  const raw = proxyVm(701, 'proxy-snap-raw', 'u-b', 'stopped');
  raw.config.scsi0 = 'local:701/vm-701-disk-1.raw,size=4G';
  dataset.nodes[0]!.vms.push(proxyVm(700, 'proxy-snap-a', 'u-a', 'running'), raw, proxyVm(702, 'proxy-snap-slow', 'u-c', 'stopped'));
  dataset.nodes[0]!.storages.find((s) => s.storage === 'local')!.content = 'iso,vztmpl,backup,images';
  sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 0, dataset, taskDurations: { qmsnapshot: 2_000_000 } });
});
afterAll(async () => sim?.close());

const base = (vmid: number) => `/nodes/pv1-1/qemu/${vmid}/snapshot`;
async function task(path: string, form: Record<string, string | number>) {
  const a = await pve(sim, 'POST', path, { form });
  expect(a.status, a.reason).toBe(200);
  return waitTask(sim, a.data as string);
}

describe('snapshot routes', () => {
  it('refuses a name outside pve-snapshot-name (400) and the reserved names (500) before any task', async () => {
    const bad = await pve(sim, 'POST', base(700), { form: { snapname: '1-starts-with-a-digit' } });
    expect(bad.status).toBe(400);
    expect((bad.json?.errors as Record<string, string>).snapname).toBe("invalid format - invalid configuration ID '1-starts-with-a-digit'");
    const long = await pve(sim, 'POST', base(700), { form: { snapname: `a${'b'.repeat(40)}` } });
    expect(long.status).toBe(400);
    const current = await pve(sim, 'POST', base(700), { form: { snapname: 'current' } });
    expect([current.status, current.reason]).toEqual([500, "unable to use snapshot name 'current' (reserved name)"]);
    const pending = await pve(sim, 'POST', base(700), { form: { snapname: 'Pending' } });
    expect(pending.reason).toBe("unable to use snapshot name 'pending' (reserved name)");
  });

  it('needs VM.Snapshot to create (403 naming it); the auditor may list', async () => {
    const a = await pve(sim, 'POST', base(700), { form: { snapname: 'nope' }, token: 'operator' });
    expect(a.status).toBe(403);
    expect(a.reason).toContain('VM.Snapshot');
    expect((await pve(sim, 'GET', base(700), { token: 'auditor' })).status).toBe(200);
  });

  it('fails the task with "snapshot feature is not available" for raw on a directory storage', async () => {
    expect((await task(base(701), { snapname: 'first' })).exitstatus).toBe('snapshot feature is not available');
    expect(sim.state.vm(701)!.snapshots ?? {}).toEqual({});
    expect(sim.state.vm(701)!.lock).toBeUndefined();
  });

  it('lists a section and `current`, refuses the same name again and a locked VM in the task', async () => {
    expect((await task(base(700), { snapname: 'first', description: 'before' })).exitstatus).toBe('OK');
    const list = (await pve(sim, 'GET', base(700))).data as Record<string, unknown>[];
    expect(list).toMatchObject([
      { name: 'first', description: 'before', vmstate: 0 },
      { name: 'current', description: 'You are here!', running: 1, parent: 'first' },
    ]);
    expect((await task(base(700), { snapname: 'first' })).exitstatus).toBe("snapshot name 'first' already used");
    sim.faults.holdLock(700, 'backup');
    expect((await task(base(700), { snapname: 'second' })).exitstatus).toBe('VM is locked (backup)');
    sim.faults.releaseLock(700);
    const cfg = await pve(sim, 'GET', `${base(700)}/missing/config`);
    expect([cfg.status, cfg.reason]).toEqual([500, "snapshot 'missing' does not exist"]);
    expect((await task(`${base(700)}/missing/rollback`, {})).exitstatus).toBe("snapshot 'missing' does not exist");
  });

  it('holds `lock: snapshot` and lists `snapstate: prepare` while the task runs; a rollback then is refused', async () => {
    const a = await pve(sim, 'POST', base(702), { form: { snapname: 'slow' } });
    // The task takes 2 s of simulated time at this scale; its prepare half has run once the lock is there.
    while (sim.state.vm(702)!.lock === undefined) await new Promise((r) => setTimeout(r, 2));
    expect(sim.state.vm(702)!.lock).toBe('snapshot');
    const list = (await pve(sim, 'GET', base(702))).data as Record<string, unknown>[];
    expect(list[0]).toMatchObject({ name: 'slow', snapstate: 'prepare' });
    const rb = await task(`${base(702)}/slow/rollback`, {});
    expect(rb.exitstatus).toBe('unable to rollback to incomplete snapshot (snapstate = prepare)');
    expect((await waitTask(sim, a.data as string)).exitstatus).toBe('OK');
    expect(sim.state.vm(702)!.lock).toBeUndefined();
  });
});
