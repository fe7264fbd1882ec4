/**
 * Issue 10: while a Proxmox task runs for a step, that step is `running` and carries the task's UPID, for every
 * task kind that starts one (create, delete, clean-up, clean-seeds, build-template). So Cancel stops that task with
 * DELETE on it and says what it stopped, instead of "No Proxmox task was running for this step".
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../../../shared/channels/tasks';
import { catalogueImage } from '../../../../shared/domain/image-catalogue';
import type { RequestContext } from '../../../../main/ipc/router';
import type { TemplateCatalogue } from '../../../../main/services/tasks/runners/build-template';
import { templatesHandlers } from '../../../../main/services/templates/handlers';
import { minimalCluster, SEED_STORAGE, simImages, type ClusterDefinition } from '../../../../main/simulator';
import { cloudInit, startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const createInput = { clusterId: 'sim', template: 't9001', machineType: 'medium', count: 1, cloudInit, node: 'pv1-1' };

async function until(what: string, cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not reached in time`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits for the step running with a UPID of `type`, cancels, and checks the task was stopped on its node and said so. */
async function cancelWhileRunning(e: Env, id: string, type: string): Promise<TaskView> {
  const runningWith = () => e.manager.get(id).steps.find((s) => s.state === 'running' && s.upid?.includes(`:${type}:`));
  await until(`a running step carrying a ${type} UPID`, () => runningWith() !== undefined);
  const upid = runningWith()!.upid!;
  const stopsBefore = e.t.sim.requests.count({ route: '/nodes/{node}/tasks/{upid}', method: 'DELETE' });
  const { message } = await e.manager.cancel(id);
  expect(e.t.sim.requests.count({ route: '/nodes/{node}/tasks/{upid}', method: 'DELETE' })).toBe(stopsBefore + 1);
  expect(e.t.sim.tasks.get(upid)).toMatchObject({ status: 'stopped', exitstatus: 'received interrupt' });
  expect(message).toMatch(
    new RegExp(`^Cancelled\\. Stopped the Proxmox task ${type} on node pv1-1: it ended with “received interrupt”\\.`),
  );
  expect(message).not.toMatch(/No Proxmox task was running/);
  const view = e.manager.get(id);
  expect(view.state).toBe('cancelled');
  expect(view.steps.some((s) => s.state === 'cancelled' && s.upid === upid)).toBe(true);
  return view;
}

async function createdProxy(e: Env, name: string): Promise<TaskView> {
  const { taskIds } = await e.manager.createProxies({ ...createInput, name });
  const done = await e.manager.wait(taskIds[0]!);
  expect(done.state).toBe('succeeded');
  return done;
}

describe('cancel stops the Proxmox task of the running step, for every task kind', () => {
  it('create (the resize)', async () => {
    env = await startEnv();
    env.t.sim.faults.hangTask({ type: 'resize' });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-c' });
    await cancelWhileRunning(env, taskIds[0]!, 'qmresize');
  });

  it('delete (the destroy), then clean-up of a cancelled create (its destroy)', async () => {
    env = await startEnv();
    const made = await createdProxy(env, 'proxy-d');
    env.t.sim.faults.hangTask({ type: 'qmdestroy' });
    const { taskIds } = await env.manager.deleteProxies('sim', [`vms/${made.vmid}/proxy-d`]);
    await cancelWhileRunning(env, taskIds[0]!, 'qmdestroy');

    env.t.sim.faults.clear();
    env.t.sim.faults.hangTask({ type: 'resize' }, 1);
    const { taskIds: created } = await env.manager.createProxies({ ...createInput, name: 'proxy-u' });
    await cancelWhileRunning(env, created[0]!, 'qmresize');
    env.t.sim.faults.hangTask({ type: 'qmdestroy' });
    const { taskId } = env.manager.cleanUp(created[0]!);
    expect(env.manager.get(taskId).kind).toBe('clean-up');
    await cancelWhileRunning(env, taskId, 'qmdestroy');
  });

  it('clean-seeds (the seed’s delete)', async () => {
    env = await startEnv();
    env.t.sim.state.putIso('pv1-1', SEED_STORAGE, 'proxy-gone-seed.iso', new Uint8Array(2048));
    env.t.sim.faults.hangTask({ type: 'imgdel' });
    const volid = `${SEED_STORAGE}:iso/proxy-gone-seed.iso`;
    const { taskId } = env.manager.cleanSeeds('sim', [{ node: 'pv1-1', volid }], false, 0);
    const view = await cancelWhileRunning(env, taskId, 'imgdel');
    expect(view.message).toBe('Cancelled. Stopped the Proxmox task imgdel on node pv1-1: it ended with “received interrupt”.');
    // Stopped before it deleted: the seed is still there for a later clean-up.
    expect(env.t.sim.state.iso('pv1-1', SEED_STORAGE, 'proxy-gone-seed.iso')).toBeDefined();
  });

  it('build-template (the download)', async () => {
    const def: ClusterDefinition = minimalCluster();
    const node = def.nodes[0]!;
    node.storages = node.storages.map((s) =>
      s.storage === 'local' ? { ...s, content: 'iso,vztmpl,backup,import', totalBytes: 100 * 1024 ** 3 } : s,
    );
    node.vms = node.vms.filter((v) => !v.template);
    const catalogue: TemplateCatalogue = { add: () => Promise.resolve({ catalogue: 'added' as const }) };
    env = await startEnv({ dataset: def }, { templateBuild: { catalogue, budgets: { youngPollMs: 2, oldPollMs: 5, youngForMs: 200 } } });
    // The simulator's task faults match a download task by its type too, though TaskKind lists only the core's.
    env.t.sim.faults.hangTask({ type: 'download' as never });
    const debian = catalogueImage('debian-13-amd64')!;
    const { taskId } = await templatesHandlers({ directory: env.t.directory, tasks: env.manager, catalogue })['templates.build'](
      {
        clusterId: 'sim',
        node: 'pv1-1',
        image: { kind: 'catalogue', id: debian.id },
        checksum: { algorithm: 'sha512', value: simImages(env.t.sim).checksum(debian.url, 'sha512') },
        targetStorage: 'local-lvm',
        bridge: 'vmbr0',
      },
      {} as RequestContext,
    );
    await cancelWhileRunning(env, taskId, 'download');
  });
});
