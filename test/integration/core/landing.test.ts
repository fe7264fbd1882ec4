/**
 * Issue 11, placement that knows storage, over the simulator through the real
 * client: the landing rules on a local-only, a shared-only and a mixed
 * cluster; a create that clones on the template's node and migrates the
 * stopped VM, as one create, with the seed on the final node; a crash between
 * the clone and the migrate; a template per node; a node no clone can reach
 * refused before any write; and Automatic placement never choosing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, vmidFor, type CallOptions, type CreateRequest, type ProgressEvent } from '../../../main/core';
import { landingsFor, type Landing } from '../../../main/core/provider/cluster/landing';
import { demoCluster, goodTemplate, SEED_STORAGE, type ClusterDefinition } from '../../../main/simulator';
import { storages } from '../../../main/simulator/datasets';
import { templatesOf } from '../../../main/services/demo/demo-cluster';
import { pickNodes } from '../../../main/services/tasks/requests/pick-nodes';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';
import { fastBudgets, simProvider, type SimProvider } from './sim-provider';

const bridges = [{ iface: 'vmbr0', vlanAware: true }];
const RANGE = { min: 100_000, max: 199_999 };

/** Three nodes with their own local storages; the template on pv1-1's local-lvm; pv1-3 has no local-lvm at all. */
function localOnly(): ClusterDefinition {
  return {
    clusterName: 'local',
    nodes: [
      { node: 'pv1-1', storages: storages(), bridges, vms: [goodTemplate(9001)] },
      { node: 'pv1-2', storages: storages(), bridges, vms: [goodTemplate(9101)] },
      { node: 'pv1-3', storages: storages().filter((s) => s.storage !== 'local-lvm'), bridges, vms: [] },
    ],
  };
}

/** Two nodes sharing an NFS export that holds the template. */
function sharedOnly(): ClusterDefinition {
  return {
    clusterName: 'shared',
    nodes: ['pv1-1', 'pv1-2'].map((node) => ({
      node,
      storages: storages(),
      bridges,
      vms: node === 'pv1-1' ? [goodTemplate(9001, 'nas', true)] : [],
    })),
    storages: [{ storage: 'nas', type: 'nfs', content: 'images,iso', totalBytes: 1e13 }],
  };
}

const brief = (ls: Landing[]) => Object.fromEntries(ls.map((l) => [l.node, l.ok ? l.way : `no: ${l.reason}`]));

describe('where a create can land', () => {
  let sims: SimCluster[] = [];
  const start = async (dataset: ClusterDefinition) => {
    const t = await startSimCluster({ dataset });
    sims.push(t);
    return t;
  };
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.close()));
    sims = [];
  });

  it('local-only: the template node clones, a node with the storage gets a clone and a move, one without it is refused', async () => {
    const t = await start(localOnly());
    const landings = await landingsFor(t.client, { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] }, { vmid: 9001 });
    expect(brief(landings)).toEqual({
      'pv1-1': 'here',
      'pv1-2': 'migrate',
      'pv1-3': "no: the template's disk is on local-lvm, which is local to pv1-1, and pv1-3 has no storage local-lvm to move the copy to",
    });
    expect(landings[1]).toMatchObject({ cloneNode: 'pv1-1', note: expect.stringMatching(/^clone on pv1-1, then move to pv1-2: about \d+ s longer/) });
    expect(landings[2]!.hint).toMatch(/Choose pv1-1, give this image a template on pv1-3 \(a template per node in the profile\)/);
    // A template per node: pv1-2 clones its own copy.
    const perNode = await landingsFor(t.client, { nodes: ['pv1-1', 'pv1-2'] }, { vmid: 9001, perNode: { 'pv1-2': 9101 } });
    expect(perNode.map((l) => [l.node, l.templateVmid, l.way])).toEqual([
      ['pv1-1', 9001, 'here'],
      ['pv1-2', 9101, 'here'],
    ]);
  });

  it('shared-only: every node by a clone with target, unless the disk storage is local', async () => {
    const t = await start(sharedOnly());
    expect(brief(await landingsFor(t.client, { nodes: ['pv1-1', 'pv1-2'] }, { vmid: 9001 }))).toEqual({ 'pv1-1': 'here', 'pv1-2': 'target' });
    const ontoLocal = await landingsFor(t.client, { nodes: ['pv1-1', 'pv1-2'], storage: 'local-lvm' }, { vmid: 9001 });
    expect(brief(ontoLocal)).toEqual({ 'pv1-1': 'here', 'pv1-2': 'migrate' });
    expect(ontoLocal[1]!.note).toContain('the target storage local-lvm is not shared');
  });

  it('mixed (the demo): a shared template, a local copy per node, a node down', async () => {
    const t = await start(demoCluster());
    const catalogue = templatesOf(t.sim);
    expect(catalogue['debian-13-template']).toEqual({ vmid: 9001, perNode: { 'pv1-2': 9101 } });
    const landings = await landingsFor(t.client, { nodes: ['pv1-1', 'pv1-2', 'pv1-3'] }, catalogue['debian-13-template']!);
    expect(landings.map((l) => [l.node, l.templateVmid, l.ok ? l.way : l.reason])).toEqual([
      ['pv1-1', 9001, 'here'],
      ['pv1-2', 9101, 'here'],
      ['pv1-3', 9001, 'pv1-3 is down'],
    ]);
    // Without the per-node entry, the local copy as the default reaches pv1-1 only by a move.
    expect(brief(await landingsFor(t.client, { nodes: ['pv1-1', 'pv1-2'] }, { vmid: 9101 }))).toEqual({ 'pv1-1': 'migrate', 'pv1-2': 'here' });
  });

  it('Automatic never chooses a node a create cannot land on, and balances over the others', async () => {
    const t = await start(localOnly());
    const picked = await pickNodes(t.cluster, 6, 't9001');
    expect(picked).not.toContain('pv1-3');
    expect(new Set(picked)).toEqual(new Set(['pv1-1', 'pv1-2']));
    // Equal counts: the node where the clone lands without a move goes first.
    expect(picked[0]).toBe('pv1-1');
  });
});

let counter = 0;
function request(zone: string, image = 'debian-13'): CreateRequest {
  counter++;
  return {
    uid: `1a2b3c4d-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    name: `proxy-land-${counter}`,
    placement: { zone, machineType: 'small', image },
    cloudInit: '#cloud-config\n',
  };
}
const vmidOf = (r: CreateRequest) => vmidFor(r.uid, RANGE, 0);

describe('create over a local-only cluster', () => {
  let env: SimProvider;
  beforeAll(async () => {
    env = await simProvider({
      dataset: localOnly(),
      timeScale: 0.01,
      agentDelayMs: 0,
      budgets: fastBudgets,
      profile: {
        nodes: ['pv1-1', 'pv1-2', 'pv1-3'],
        templates: { 'debian-13': { vmid: 9001 }, 'debian-13-per-node': { vmid: 9001, perNode: { 'pv1-2': 9101 } } },
      },
    });
  });
  afterAll(async () => env?.close());
  const routeCount = (route: string, method = 'POST') => env.sim.requests.count({ route, method });

  it('clones on the template node, migrates the stopped VM, then seeds and starts it there: one create', async () => {
    const r = request('pv1-2');
    const events: ProgressEvent[] = [];
    env.sim.requests.clear();
    const id = await env.provider.create(r, { onProgress: (e) => events.push(e) });
    expect(id).toBe(`vms/${vmidOf(r)}/${r.name}`);
    expect(env.sim.state.vm(vmidOf(r))).toMatchObject({ node: 'pv1-2', power: 'running' });
    const clone = env.sim.requests.records.find((x) => x.route === '/nodes/{node}/qemu/{vmid}/clone')!;
    expect(clone.node).toBe('pv1-1');
    expect(clone.form).not.toHaveProperty('target');
    const migrate = env.sim.requests.records.find((x) => x.route === '/nodes/{node}/qemu/{vmid}/migrate')!;
    expect(migrate).toMatchObject({ node: 'pv1-1', form: { target: 'pv1-2', 'with-local-disks': '1' } });
    // The seed went to the final node only (uploaded there beside the clone, seed-beside-clone.ts), and is attached
    // only once the VM is there: a local CD-ROM would stop the migrate.
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${r.name}-seed.iso`)).toBeDefined();
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${r.name}-seed.iso`)).toBeUndefined();
    const upload = env.sim.requests.records.find((x) => x.route === '/nodes/{node}/storage/{storage}/upload')!;
    expect(upload.node).toBe('pv1-2');
    const order = env.sim.requests.records.map((x) => `${x.method} ${x.route}`);
    expect(order.indexOf('POST /nodes/{node}/qemu/{vmid}/migrate')).toBeLessThan(order.indexOf('PUT /nodes/{node}/qemu/{vmid}/config'));
    const tasks = events.filter((e) => e.phase === 'task').map((e) => e.step);
    expect([...tasks].sort()).toEqual(['clone', 'migrate', 'start', 'upload-seed']);
    expect(tasks.indexOf('clone')).toBeLessThan(tasks.indexOf('migrate'));
    expect(events.find((e) => e.step === 'migrate' && e.phase === 'task')?.upid).toMatch(/^UPID:pv1-1:[^:]+:[^:]+:[^:]+:qmigrate:/);
    expect(events.every((e) => e.node === undefined || e.node === 'pv1-2')).toBe(true);
  });

  it('on the template node itself the migrate step is skipped', async () => {
    const events: ProgressEvent[] = [];
    await env.provider.create(request('pv1-1'), { onProgress: (e) => events.push(e) });
    expect(events.find((e) => e.step === 'migrate')?.phase).toBe('skipped');
  });

  it('picks the per-node template of the landing node: no migrate', async () => {
    const r = request('pv1-2', 'debian-13-per-node');
    const before = routeCount('/nodes/{node}/qemu/{vmid}/migrate');
    await env.provider.create(r);
    const clone = env.sim.requests.records.filter((x) => x.route === '/nodes/{node}/qemu/{vmid}/clone').at(-1)!;
    expect(clone).toMatchObject({ node: 'pv1-2', path: '/nodes/pv1-2/qemu/9101/clone' });
    expect(routeCount('/nodes/{node}/qemu/{vmid}/migrate')).toBe(before);
    expect(env.sim.state.vm(vmidOf(r))).toMatchObject({ node: 'pv1-2', power: 'running' });
  });

  it('refuses a node no clone can reach before any write, naming the ways out', async () => {
    const r = request('pv1-3');
    const writes = () => env.sim.requests.records.filter((x) => x.method !== 'GET').length;
    const before = writes();
    const err = await env.provider.create(r).catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect((err as Error).message).toContain(
      `cannot be created on pv1-3: the template's disk is on local-lvm, which is local to pv1-1, and pv1-3 has no storage local-lvm`,
    );
    expect((err as { hint: string }).hint).toContain('a template per node');
    expect(writes()).toBe(before);
  });

  /** Runs a create and aborts it the moment `step` reaches `phase`. */
  async function cutOff(r: CreateRequest, step: string, phase: string): Promise<unknown> {
    const controller = new AbortController();
    const onProgress: CallOptions['onProgress'] = (e) => {
      if (e.step === step && e.phase === phase) controller.abort();
    };
    return env.provider.create(r, { signal: controller.signal, onProgress }).then(
      () => new Error('finished'),
      (e: unknown) => e,
    );
  }

  it.each([
    ['migrate', 'started'],
    ['migrate', 'task'],
    ['clone', 'done'],
  ])('a crash at %s/%s resumes by migrating: one VM, on the chosen node, running, one seed', async (step, phase) => {
    const r = request('pv1-2');
    const err = await cutOff(r, step, phase);
    expect(isProviderError(err, 'transient'), String(err)).toBe(true);
    expect(await env.provider.create(r)).toBe(`vms/${vmidOf(r)}/${r.name}`);
    const named = [...env.sim.state.vms.values()].filter((vm) => vm.config.name === r.name);
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({ node: 'pv1-2', power: 'running' });
    expect(env.sim.state.iso('pv1-2', SEED_STORAGE, `${r.name}-seed.iso`)).toBeDefined();
    expect(env.sim.state.iso('pv1-1', SEED_STORAGE, `${r.name}-seed.iso`)).toBeUndefined();
  });
});
