/**
 * Issue 23 item 4: a migrate of a proxy this app made, with its seed on
 * node-local storage, needs no user-data from the user: the app kept what
 * it put into the seed (sealed) at the create, and again at a reconfigure,
 * across a restart. The seed on the target is the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROXY_RECORDS_FILE } from '../../../../main/services/tasks/records/proxy-records';
import { SEED_STORAGE } from '../../../../main/simulator';
import { madeHere, startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const USER_DATA = '#cloud-config\nhostname: kept # SENTINEL-kept-4711\n';
const demo = () => startEnv({ dataset: 'demo', timeScale: 0.001, agentDelayMs: 0 });

/** A proxy this app made (so not operator-made), running on pv1-1, with USER_DATA. */
const made = (e: Env, name: string) => madeHere(e, name, USER_DATA);

describe('the user-data this app put into a seed', () => {
  it('a migrate moments after the create rebuilds the same seed on the target without asking for it', async () => {
    env = await demo();
    const vmid = await made(env, 'kept-move');
    const source = Buffer.from(env.t.sim.state.iso('pv1-1', SEED_STORAGE, 'kept-move-seed.iso')!.bytes);
    const move = await env.manager.migrate({ clusterId: 'sim', targets: [{ vmid, name: 'kept-move' }], to: 'pv1-2' });
    const moved = await env.manager.wait(move.taskIds[0]!);
    expect(moved.state, moved.message).toBe('succeeded');
    // Issue 23 item 13: the finished task names the node the VM is on now, the target.
    expect(moved.node).toBe('pv1-2');
    expect(Buffer.from(env.t.sim.state.iso('pv1-2', SEED_STORAGE, 'kept-move-seed.iso')!.bytes).equals(source)).toBe(true);
    expect(readFileSync(join(env.dir, PROXY_RECORDS_FILE), 'utf8')).not.toContain('SENTINEL-kept-4711');
  });

  it("after a reconfigure and a restart, the reconfigure's user-data is the one kept", async () => {
    env = await demo();
    const vmid = await made(env, 'kept-reconf');
    const NEW = '#cloud-config\nhostname: reconfigured\n';
    const reconf = await env.manager.reconfigure({ clusterId: 'sim', targets: [{ vmid, name: 'kept-reconf' }], cloudInit: NEW });
    expect((await env.manager.wait(reconf.taskIds[0]!)).state).toBe('succeeded');
    const source = Buffer.from(env.t.sim.state.iso('pv1-1', SEED_STORAGE, 'kept-reconf-seed.iso')!.bytes);
    await env.manager.close();
    env.manager = env.open();
    const move = await env.manager.migrate({ clusterId: 'sim', targets: [{ vmid, name: 'kept-reconf' }], to: 'pv1-2' });
    const moved = await env.manager.wait(move.taskIds[0]!);
    expect(moved.state, moved.message).toBe('succeeded');
    expect(Buffer.from(env.t.sim.state.iso('pv1-2', SEED_STORAGE, 'kept-reconf-seed.iso')!.bytes).equals(source)).toBe(true);
  });
});

describe('issue 23 item 9: a reconfigure to a machine type', () => {
  it('changes cores and memory only ("Empty keeps it": the disk stays), and the record names the new type', async () => {
    env = await demo();
    const vmid = await made(env, 'kept-resize');
    const diskBefore = String(env.t.sim.state.vm(vmid)?.config.scsi0 ?? env.t.sim.state.vm(vmid)?.config.virtio0);
    const { taskIds } = await env.manager.reconfigure({
      clusterId: 'sim',
      targets: [{ vmid, name: 'kept-resize' }],
      machineType: 'medium',
    });
    const done = await env.manager.wait(taskIds[0]!);
    expect(done.state, done.message).toBe('succeeded');
    const config = env.t.sim.state.vm(vmid)!.config;
    expect([config.cores, config.memory].map(String)).toEqual(['2', '2048']);
    expect(String(config.scsi0 ?? config.virtio0)).toBe(diskBefore);
    expect(done.steps.find((s) => s.name === 'resize')?.state ?? 'absent').not.toBe('done');
    const uid = /proxy-operator-uid=([\w-]+)/.exec(String(config.description))![1]!;
    expect(env.manager.proxyOrigin('sim', uid)?.machineType).toBe('medium');
  });
});
