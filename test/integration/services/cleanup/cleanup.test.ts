import { afterEach, describe, expect, it } from 'vitest';
import { proxyVm } from '../../../../main/simulator';
import { createCleanupService } from '../../../../main/services/cleanup/service';
import { cloudInit, startEnv, type Env } from '../tasks/harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const NODE = 'pv1-1';
const STORAGE = 'proxy-seeds';
const volid = (name: string) => `${STORAGE}:iso/${name}-seed.iso`;

/** A seed file on the simulated node, made `ageMinutes` ago. */
function putSeed(e: Env, name: string, ageMinutes: number): void {
  e.t.sim.state.putIso(NODE, STORAGE, `${name}-seed.iso`, new Uint8Array(1024));
  e.t.sim.state.iso(NODE, STORAGE, `${name}-seed.iso`)!.ctime = Math.floor(Date.now() / 1000) - ageMinutes * 60;
}

async function setup() {
  env = await startEnv();
  const cleanup = createCleanupService({ directory: env.t.directory, tasks: env.manager });
  putSeed(env, 'proxy-old', 120);
  putSeed(env, 'proxy-young', 2);
  putSeed(env, 'proxy-used', 120);
  env.t.sim.state.addVm(NODE, { vmid: 4242, config: { name: 'someone-elses-vm', ide0: `${volid('proxy-used')},media=cdrom` } });
  env.t.sim.state.addVm(NODE, proxyVm(150_010, 'proxy-stopped', 'uid-1', 'stopped'));
  env.t.sim.state.addVm(NODE, { vmid: 150_011, config: { name: 'proxy-lookalike' } });
  return { e: env, cleanup };
}

describe('orphan-seed cleanup over the simulator', () => {
  it('lists each seed with why it may go or must stay, and the VMs worth a look', async () => {
    const { cleanup } = await setup();
    const report = await cleanup.scan('sim');
    expect(report.orphans.map((r) => r.name)).toEqual(['proxy-old']);
    expect(report.orphans[0]).toMatchObject({
      sizeBytes: 1024,
      reason: expect.stringMatching(/No VM uses it, no task is working on proxy-old, and it is 2 h old \(grace period 15 min\)/),
    });
    const kept = Object.fromEntries(report.kept.map((r) => [r.name, r.reason]));
    expect(kept['proxy-used']).toBe('VM 4242 (someone-elses-vm) uses it in ide0.');
    expect(kept['proxy-young']).toMatch(/2 min old; seeds younger than 15 min are kept/);
    expect(report.halfBuilt.map((v) => v.name)).toEqual(['proxy-stopped']);
    expect(report.missingSeed.map((v) => v.name)).toEqual(['proxy-stopped']);
    expect(report.foreign.map((v) => v.name)).toEqual(['proxy-lookalike']);
  });

  it('never deletes a seed a VM started using after the scan, nor one a task works on; deletes the true orphan', async () => {
    const { e, cleanup } = await setup();
    putSeed(e, 'proxy-late', 120);
    putSeed(e, 'proxy-busy', 120);
    const report = await cleanup.scan('sim');
    expect(report.orphans.map((r) => r.name).sort()).toEqual(['proxy-busy', 'proxy-late', 'proxy-old']);

    // Between the listing and the delete: a VM takes proxy-late's seed, and a create starts on proxy-busy.
    e.t.sim.state.addVm(NODE, proxyVm(150_020, 'proxy-late', 'uid-2', 'running'));
    e.t.sim.faults.hangTask({ type: 'qmclone' });
    await e.manager.createProxies({
      clusterId: 'sim',
      node: NODE,
      template: 't9001',
      machineType: 'small',
      name: 'proxy-busy',
      count: 1,
      cloudInit,
    });

    const dry = await e.manager.wait(
      cleanup.deleteSeeds(
        'sim',
        report.orphans.map(({ node, volid }) => ({ node, volid })),
        true,
      ).taskId,
    );
    expect(dry.seeds?.deleted.map((s) => s.volid)).toEqual([volid('proxy-old')]);
    expect(e.t.sim.state.iso(NODE, STORAGE, 'proxy-old-seed.iso')).toBeDefined();

    const run = await e.manager.wait(
      cleanup.deleteSeeds(
        'sim',
        report.orphans.map(({ node, volid }) => ({ node, volid })),
        false,
      ).taskId,
    );
    expect(run.state).toBe('succeeded');
    expect(run.seeds?.deleted.map((s) => s.volid)).toEqual([volid('proxy-old')]);
    const skipped = Object.fromEntries(run.seeds!.skipped.map((s) => [s.volid, s.reason]));
    expect(skipped[volid('proxy-late')]).toBe('VM 150020 (proxy-late) uses it in ide2.');
    expect(skipped[volid('proxy-busy')]).toMatch(/The task "proxy-busy" \(running\) is working on proxy-busy/);
    expect(run.upids.map((u) => u.upid)).toEqual([expect.stringMatching(/:imgdel:/)]);
    expect(e.t.sim.state.iso(NODE, STORAGE, 'proxy-old-seed.iso')).toBeUndefined();
    expect(e.t.sim.state.iso(NODE, STORAGE, 'proxy-late-seed.iso')).toBeDefined();
    expect(e.t.sim.state.iso(NODE, STORAGE, 'proxy-busy-seed.iso')).toBeDefined();
  });
});

describe('the cleanup a newcomer meets (issue 23 item 11)', () => {
  it("does not call a proxy this app's own Stop stopped half-built, and does one the app never stopped", async () => {
    const { e } = await setup();
    const stopped = {
      kind: 'stop-proxy' as const,
      clusterId: 'sim',
      vmid: 150_010,
      target: 'proxy-stopped',
      state: 'succeeded' as const,
      createdAt: new Date().toISOString(),
    };
    const withStop = createCleanupService({
      directory: e.t.directory,
      tasks: { ...e.manager, list: () => [...e.manager.list(), stopped] },
    });
    expect((await withStop.scan('sim')).halfBuilt.map((v) => v.name)).toEqual([]);
    // A later start that failed makes it a proxy in trouble again: only the app's last word on the VM counts.
    const startedAgain = { ...stopped, kind: 'start-proxy' as const, state: 'failed' as const, createdAt: new Date(Date.now() + 1000).toISOString() };
    const withStart = createCleanupService({
      directory: e.t.directory,
      tasks: { ...e.manager, list: () => [stopped, startedAgain] },
    });
    expect((await withStart.scan('sim')).halfBuilt.map((v) => v.name)).toEqual(['proxy-stopped']);
  });

  it("uses the app's grace setting when a scan names none", async () => {
    const { e } = await setup();
    const cleanup = createCleanupService({ directory: e.t.directory, tasks: e.manager, graceMinutes: () => 1 });
    const report = await cleanup.scan('sim');
    expect(report.graceMinutes).toBe(1);
    expect(report.orphans.map((r) => r.name).sort()).toEqual(['proxy-old', 'proxy-young']);
  });
});
