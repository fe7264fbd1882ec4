/**
 * Full clones per storage: a bulk create through the task manager never has
 * more than `clonesPerStorage` copies onto one storage at once (the
 * simulator's bandwidth flows, sampled, and the slots' own peak), while the
 * slot is held for the clone step alone, so other creates' uploads and starts
 * run alongside the copies; and the limits follow the settings, live.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import type { CloneGate } from '../../../../main/core';
import { storages } from '../../../../main/simulator/datasets';
import { goodTemplate } from '../../../../main/simulator';
import { startSimCluster } from '../../../support/sim-cluster';
import { createLogger } from '../../../../main/log/logger';
import { cloneStorageKey, defaultLimits } from '../../../../main/services/tasks/queue/slots';
import { startEnv, type Env } from './harness';

/** Timing tests measure simulated time, which event-loop lag on 2 shared cores can only stretch: one retry. */
const TIMING = { retry: 1, timeout: 60_000 };
/** The minimal dataset: one node, template 9001 with its disk (~420 MiB of data) on local-lvm (450 MB/s). */
const STORAGE = 'pv1-1/local-lvm';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Samples the simulator's copies in progress onto STORAGE, every millisecond and on every request it answers. */
function watchCopies(e: Env) {
  const { sim } = e.t;
  let most = 0;
  const sample = () => {
    const n = sim.physics.flows.rates().filter((f) => f.resources.includes(STORAGE)).length;
    most = Math.max(most, n);
  };
  const add = sim.requests.add.bind(sim.requests);
  sim.requests.add = (record) => {
    add(record);
    sample();
  };
  const timer = setInterval(sample, 1);
  return {
    most: () => most,
    stop: () => {
      clearInterval(timer);
      sim.requests.add = add;
    },
  };
}

async function bulk(e: Env, count: number, name: string): Promise<number> {
  const started = performance.now();
  const { taskIds } = await e.manager.createProxies({
    clusterId: e.t.cluster.id,
    template: 't9001',
    machineType: 'medium',
    name,
    count,
    cloudInit: '#cloud-config\n',
  });
  const ends = await Promise.all(taskIds.map((id) => e.manager.wait(id)));
  expect(ends.filter((t) => t.state !== 'succeeded').map((t) => t.message)).toEqual([]);
  return performance.now() - started;
}

/** [start, end] in simulated ms of this run's Proxmox tasks of one type. */
function spans(e: Env, type: string, since: Set<string>): [number, number][] {
  return [...e.t.sim.tasks.tasks.entries()]
    .filter(([upid, t]) => !since.has(upid) && t.type === type)
    .map(([, t]) => [t.simStart, t.simEnd ?? Infinity] as [number, number]);
}

describe('full clones per storage', () => {
  it('a bulk of 8 creates on one storage copies at most 2 at once, and the other steps overlap the copies', TIMING, async () => {
    // Tasks per node raised so only the clone limit holds the bulk back (all 8 land on the one node).
    env = await startEnv({ timeScale: 0.05 }, { limits: { perNode: 8 } });
    const e = env;
    expect(e.manager.limits()).toEqual({ ...defaultLimits, perNode: 8 });

    await bulk(e, 1, 'proxy-warm-up'); // connections and code paths warm: the pair is not measured cold
    const pairMs = await bulk(e, 2, 'proxy-pair');
    const before = new Set(e.t.sim.tasks.tasks.keys());
    const copies = watchCopies(e);
    const bulkMs = await bulk(e, 8, 'proxy-bulk');
    copies.stop();

    // Never more than 2 copies onto local-lvm at once, at the simulator and in the slots; and 2 did run together.
    expect(copies.most()).toBe(2);
    const key = cloneStorageKey({ clusterId: e.t.cluster.id, node: 'pv1-1', storage: 'local-lvm', shared: false });
    expect(e.manager.peakClonesPerStorage()).toEqual({ [key]: 2 });

    // The slot covers the clone step only: uploads and starts of other creates run while clones copy...
    const clones = spans(e, 'qmclone', before);
    expect(clones).toHaveLength(8);
    const others = [...spans(e, 'imgcopy', before), ...spans(e, 'qmstart', before)];
    const overlapping = others.filter(([s, end]) => clones.some(([cs, ce]) => s < ce && cs < end));
    expect(overlapping.length).toBeGreaterThan(0);
    // ...so 8 creates take well under 4 pairs of creates one after the other (held for the whole create: ~4 pairs).
    expect(bulkMs).toBeLessThan(0.8 * 4 * pairMs);
  });

  it('counts a shared storage once for the cluster: clones onto it from every node share its 2 slots', { timeout: 60_000 }, async () => {
    // The demo: template 9001 on nas-nfs (shared), cloned with `target` onto each online node.
    env = await startEnv({ dataset: 'demo', timeScale: 0.05 });
    const e = env;
    for (const node of e.t.sim.state.nodes.keys()) e.t.sim.faults.nodeUp(node);
    await bulk(e, 6, 'proxy-nas');
    const key = cloneStorageKey({ clusterId: e.t.cluster.id, node: 'pv1-1', storage: 'nas-nfs', shared: true });
    expect(e.manager.peakClonesPerStorage()).toEqual({ [key]: 2 });
  });
});

describe('the core at the gate', () => {
  it('gates the clone onto its storage, then the migrate on both ends, each for its Proxmox task alone', async () => {
    // The template on pv1-1's local-lvm; a create on pv1-2 clones on pv1-1, then migrates the stopped VM.
    const bridges = [{ iface: 'vmbr0', vlanAware: true }];
    const t = await startSimCluster({
      dataset: {
        clusterName: 'local',
        nodes: [
          { node: 'pv1-1', storages: storages(), bridges, vms: [goodTemplate(9001)] },
          { node: 'pv1-2', storages: storages(), bridges, vms: [] },
        ],
      },
      budgets: { youngPollMs: 5, oldPollMs: 20, youngForMs: 100 },
    });
    try {
      const seen: string[] = [];
      const running = (type: string) => [...t.sim.tasks.tasks.values()].filter((k) => k.type === type && k.status === 'running').length;
      const gate: CloneGate = async (target) => {
        seen.push(`gate ${JSON.stringify(target)}`);
        return () => seen.push(`release (clones running ${running('qmclone')}, migrates running ${running('qmigrate')})`);
      };
      await t.cluster.provider.create(
        {
          uid: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
          name: 'proxy-gated',
          placement: { zone: 'pv1-2', machineType: 'small', image: 't9001' },
          cloudInit: '#cloud-config\n',
        },
        {
          cloneGate: gate,
          onProgress: (p) => {
            if ((p.step === 'clone' || p.step === 'migrate') && p.phase !== 'started') seen.push(`${p.step} ${p.phase}`);
          },
        },
      );
      expect(seen).toEqual([
        'gate {"node":"pv1-1","storage":"local-lvm"}',
        'clone task',
        'release (clones running 0, migrates running 0)',
        'clone done',
        'gate {"node":"pv1-2","storage":"local-lvm","from":{"node":"pv1-1","storage":"local-lvm"}}',
        'migrate task',
        'release (clones running 0, migrates running 0)',
        'migrate done',
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('limits from the settings', () => {
  it('a change serves queued work under the new limits at once', TIMING, async () => {
    env = await startEnv({ timeScale: 0.05 }, { limits: { global: 1 } });
    const e = env;
    const { taskIds } = await e.manager.createProxies({
      clusterId: e.t.cluster.id,
      template: 't9001',
      machineType: 'medium',
      name: 'proxy-live',
      count: 3,
      cloudInit: '#cloud-config\n',
    });
    const running = () => taskIds.filter((id) => e.manager.get(id).state === 'running').length;
    await expect.poll(running).toBe(1);
    expect(taskIds.filter((id) => e.manager.get(id).state === 'queued')).toHaveLength(2);
    e.manager.setLimits({ global: 12 });
    expect(e.manager.limits().global).toBe(12);
    // The first create is still running: the two queued ones start alongside it.
    await expect.poll(running, { interval: 2 }).toBe(3);
    await Promise.all(taskIds.map((id) => e.manager.wait(id)));
  });

  it('the composed app takes its limits from the saved settings, and settings.set changes them live', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-limits-'));
    const open = () =>
      composeApp({
        mode: 'browser',
        version: '0.0.0',
        runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
        logger: createLogger({ sinks: [] }),
        demo: 'off',
        statusIntervalMs: 60_000,
        dataDir,
      });
    const ctx = { signal: new AbortController().signal, transport: 'test' };
    let app = open();
    try {
      expect(app.tasks.limits()).toEqual(defaultLimits);
      const set = await app.router.dispatch('settings.set', { settings: { taskLimits: { perNode: 2, clonesPerStorage: 1 } } }, ctx);
      expect(set).toMatchObject({ ok: true, value: { taskLimits: { perNode: 2, clonesPerStorage: 1 } } });
      expect(app.tasks.limits()).toEqual({ global: 12, perNode: 2, clonesPerStorage: 1 });
      // A number left out is its default again.
      await app.router.dispatch('settings.set', { settings: { taskLimits: { global: 20 } } }, ctx);
      expect(app.tasks.limits()).toEqual({ global: 20, perNode: 4, clonesPerStorage: 2 });
      // Out of bounds: refused in words at main's edge, the limits unchanged.
      const refused = await app.router.dispatch('settings.set', { settings: { taskLimits: { clonesPerStorage: 17 } } }, ctx);
      expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      expect(refused.ok ? '' : refused.error.message).toContain('Allow at most 16 clones per storage.');
      expect(app.tasks.limits()).toEqual({ global: 20, perNode: 4, clonesPerStorage: 2 });
      // The next start reads them from the saved settings.
      await app.dispose();
      app = open();
      expect(app.tasks.limits()).toEqual({ global: 20, perNode: 4, clonesPerStorage: 2 });
    } finally {
      await app.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
