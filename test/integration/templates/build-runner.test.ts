/**
 * Issue 14: the template build as a task (main/services/tasks/runners/build-template.ts),
 * through the task manager and the templates channels' handlers, against the
 * simulator: success lands in the catalogue with the doctor's verdict; a crash
 * (a quit) at each journal point leaves it interrupted and Resume converges on
 * one template; Clean up removes the half-built VM and the image; cancel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../../shared/channels/tasks';
import type { BuildTemplateInput } from '../../../shared/channels/templates';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import { parseDownloadProgress } from '../../../shared/domain/wget-progress';
import { buildIdOf } from '../../../main/core/templates/recipe';
import type { RequestContext } from '../../../main/ipc/router';
import type { Cluster } from '../../../main/services/clusters/cluster';
import type { TemplateCatalogue } from '../../../main/services/tasks/runners/build-template';
import type { TaskManager } from '../../../main/services/tasks/task-manager';
import { templatesHandlers } from '../../../main/services/templates/handlers';
import { minimalCluster, simImages, type ClusterDefinition, type Simulator } from '../../../main/simulator';
import { startEnv, type Env } from '../services/tasks/harness';

const debian = catalogueImage('debian-13-amd64')!;
const GiB = 1024 ** 3;

/** pv1-1 with `local` holding import content, and no template at all. */
function noTemplates(): ClusterDefinition {
  const def = minimalCluster();
  const node = def.nodes[0]!;
  node.storages = node.storages.map((s) =>
    s.storage === 'local' ? { ...s, content: 'iso,vztmpl,backup,import', totalBytes: 100 * GiB } : s,
  );
  node.vms = node.vms.filter((v) => !v.template);
  return def;
}

const fastBuild = { youngPollMs: 2, oldPollMs: 5, youngForMs: 200 };

class FakeCatalogue implements TemplateCatalogue {
  added: { clusterId: string; key: string; node: string; vmid: number }[] = [];
  add(clusterId: string, key: string, node: string, vmid: number) {
    this.added.push({ clusterId, key, node, vmid });
    return Promise.resolve({ catalogue: 'added' as const });
  }
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function open(timeScale = 0.001, catalogue = new FakeCatalogue()) {
  env = await startEnv({ dataset: noTemplates(), timeScale }, { templateBuild: { catalogue, budgets: fastBuild } });
  return { env, catalogue };
}

const handlers = (e: Env, catalogue?: TemplateCatalogue, manager: TaskManager = e.manager) =>
  templatesHandlers({ directory: e.t.directory, tasks: manager, ...(catalogue ? { catalogue } : {}) });
const ctx = {} as RequestContext;

function input(sim: Simulator, more: Partial<BuildTemplateInput> = {}): BuildTemplateInput {
  return {
    clusterId: 'sim',
    node: 'pv1-1',
    image: { kind: 'catalogue', id: debian.id },
    checksum: { algorithm: 'sha512', value: simImages(sim).checksum(debian.url, 'sha512') },
    targetStorage: 'local-lvm',
    bridge: 'vmbr0',
    ...more,
  };
}

const ours = (sim: Simulator) => [...sim.state.vms.values()].filter((v) => buildIdOf(String(v.config.description ?? '')) !== undefined);
const importFiles = (sim: Simulator) =>
  simImages(sim)
    .list('pv1-1', 'local')
    .map((v) => v.filename);
const downloadsDone = (sim: Simulator) =>
  [...sim.tasks.tasks.values()].filter((t) => t.type === 'download' && t.log.some((l) => l.includes(' saved [')));

async function until(what: string, check: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('the build-template task', () => {
  it('builds, follows the download log, runs the verdict, and adds the template to the catalogue', async () => {
    const { env: e, catalogue } = await open();
    const pf = await handlers(e)['templates.preflight'](input(e.t.sim), ctx);
    expect(pf.ok).toBe(true);
    expect(pf.importStorage).toBe('local');
    expect(pf.checksumList).toEqual({ algorithm: 'sha512', url: debian.checksum.listUrl, entry: debian.checksum.listEntry });

    const { taskId } = await handlers(e, catalogue)['templates.build'](input(e.t.sim, { vmid: pf.vmid }), ctx);
    const done = await e.manager.wait(taskId);
    expect(done.error).toBeUndefined();
    expect(done.state).toBe('succeeded');
    expect(done.kind).toBe('build-template');
    expect(done.steps.map((s) => `${s.name}:${s.state}`)).toEqual([
      'preflight:done',
      'download:done',
      'create-vm:done',
      'convert:done',
      'verify:done',
      'cleanup-image:done',
      'catalogue:done',
    ]);
    expect(done.template).toMatchObject({ catalogueKey: debian.id, node: 'pv1-1', vmid: pf.vmid, catalogue: 'added' });
    expect(done.template?.verdict.suitable).toBe(true);
    expect(done.message).toContain('is built and Suitable; added to the catalogue as "debian-13-amd64"');
    expect(catalogue.added).toEqual([{ clusterId: 'sim', key: debian.id, node: 'pv1-1', vmid: pf.vmid }]);
    expect(e.t.sim.state.vm(pf.vmid)!.template).toBe(true);
    expect(importFiles(e.t.sim)).toEqual([]);

    // The download's Proxmox task log was followed: its wget rows tell bytes and rate.
    const download = done.upids.find((u) => u.step === 'download')!;
    const read = await e.manager.readLog(taskId, download.upid, 0, 500);
    const progress = parseDownloadProgress(read.lines.map((l) => l.t))!;
    expect(progress).toMatchObject({ bytes: debian.approxBytes, totalBytes: debian.approxBytes, done: true });
    expect(progress.bytesPerSecond).toBeGreaterThan(0);
  });

  it('a preflight blocker (no import storage) fails the task before any write, with the pvesm command', async () => {
    const { env: e } = await open();
    e.t.sim.state.node('pv1-1')!.storages.get('local')!.content = 'iso,vztmpl,backup';
    const pf = await handlers(e)['templates.preflight'](input(e.t.sim), ctx);
    expect(pf.ok).toBe(false);
    expect(pf.blockers.find((b) => b.code === 'no-import-storage')?.fix).toContain('pvesm set local --content iso,vztmpl,backup,import');
    expect(pf.storages.find((s) => s.storage === 'local')).toMatchObject({ importContent: false, fileBased: true });
    const { taskId } = await handlers(e)['templates.build'](input(e.t.sim), ctx);
    const done = await e.manager.wait(taskId);
    expect(done.state).toBe('failed');
    expect(done.error?.hint).toContain('pvesm set local');
    expect(done.actions).toEqual([]);
    expect(e.t.sim.requests.records.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

/** The API call at which the app "quits": the manager closes (aborting the run) before or after the request is sent. */
const CRASH_AT = ['downloadUrl', 'createVm', 'convertToTemplate', 'deleteVolume'] as const;

describe('a quit at each step, then Resume or Clean up', () => {
  for (const method of CRASH_AT) {
    for (const when of ['before', 'after'] as const) {
      it(`quit ${when} ${method}: interrupted; Resume converges on one template and one download`, async () => {
        const catalogue = new FakeCatalogue();
        const { env: e } = await open(0.001, catalogue);
        let fired = false;
        const real = e.t.cluster.api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        const api = new Proxy(real, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (prop !== method || fired) return (value as (...a: unknown[]) => unknown).apply(target, args);
              fired = true;
              if (when === 'before') {
                void e.manager.close();
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              }
              const sent = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              return sent.finally(() => void e.manager.close());
            };
          },
        });
        const cluster: Cluster = { ...e.t.cluster, api: api as unknown as Cluster['api'] };
        e.t.directory.set(cluster);
        const first = e.manager;
        const { taskId } = await handlers(e, catalogue)['templates.build'](input(e.t.sim), ctx);
        await until('the quit', () => fired);
        await first.close();

        // The next start: the same journal, a client without the quit.
        e.t.directory.set(e.t.cluster);
        e.manager = e.open();
        const cut = e.manager.get(taskId);
        expect(cut.state).toBe('interrupted');
        expect(cut.actions).toContain('resume');

        e.manager.resume(taskId);
        const done = await e.manager.wait(taskId);
        expect(done.error).toBeUndefined();
        expect(done.state).toBe('succeeded');
        expect(ours(e.t.sim)).toHaveLength(1);
        expect(ours(e.t.sim)[0]!.template).toBe(true);
        expect(downloadsDone(e.t.sim)).toHaveLength(1);
        expect(importFiles(e.t.sim)).toEqual([]);
        expect(catalogue.added).toHaveLength(1);
        expect(done.template?.verdict.suitable).toBe(true);
      });
    }
  }

  it('Clean up after a quit mid-conversion removes the half-built VM and the image', async () => {
    const { env: e } = await open();
    let fired = false;
    const real = e.t.cluster.api as unknown as Record<string, unknown>;
    const api = new Proxy(real, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (prop === 'convertToTemplate' && !fired) {
            fired = true;
            void e.manager.close();
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    e.t.directory.set({ ...e.t.cluster, api: api as unknown as Cluster['api'] });
    const first = e.manager;
    const { taskId } = await handlers(e)['templates.build'](input(e.t.sim), ctx);
    await until('the quit', () => fired);
    await first.close();
    e.t.directory.set(e.t.cluster);
    e.manager = e.open();
    const cut = e.manager.get(taskId);
    expect(cut.state).toBe('interrupted');
    expect(cut.actions).toEqual(['resume', 'clean-up']);
    expect(cut.leftBehind).toMatch(/^the half-built VM \d+ and the image local:import\/debian-13-genericcloud-amd64\.qcow2$/);
    expect(ours(e.t.sim)).toHaveLength(1);

    const { taskId: cleanId } = e.manager.cleanUp(taskId);
    const cleaned = await e.manager.wait(cleanId);
    expect(cleaned.kind).toBe('clean-up-build');
    expect(cleaned.state).toBe('succeeded');
    expect(cleaned.message).toMatch(/^Cleaned up: VM \d+ .* and the image local:import\/.* are gone\.$/);
    expect(ours(e.t.sim)).toEqual([]);
    expect(importFiles(e.t.sim)).toEqual([]);
    const closed = e.manager.get(taskId);
    expect(closed.closedBy).toBe(cleanId);
    expect(closed.actions).toEqual([]);
  });
});

describe('cancel', () => {
  it('stops the download on its node; Retry then builds the template', async () => {
    const { env: e, catalogue } = await open(0.2);
    simImages(e.t.sim).downloadBytesPerSec = 20 * 1024 * 1024;
    const { taskId } = await handlers(e, catalogue)['templates.build'](input(e.t.sim), ctx);
    await until('the download task', () =>
      e.manager.get(taskId).steps.some((s) => s.name === 'download' && s.state === 'running' && s.upid),
    );
    const { message } = await e.manager.cancel(taskId);
    expect(message).toMatch(/Stopped the Proxmox task download on node pv1-1|download/);
    const cancelled: TaskView = e.manager.get(taskId);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.steps.find((s) => s.name === 'download')?.state).toBe('cancelled');
    expect(cancelled.actions).toContain('retry');
    expect(ours(e.t.sim)).toEqual([]);

    simImages(e.t.sim).downloadBytesPerSec = 2 * 1024 ** 3;
    e.manager.retry(taskId);
    const done = await e.manager.wait(taskId);
    expect(done.state).toBe('succeeded');
    expect(ours(e.t.sim)).toHaveLength(1);
    expect(importFiles(e.t.sim)).toEqual([]);
  });
});
