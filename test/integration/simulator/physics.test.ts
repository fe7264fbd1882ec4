/**
 * Issue 11's simulator physics, each rule tied to its source (docs/simulator.md, "Physics"):
 * storage locality (shared vs local), qemu-server clone_vm's refusals, disk
 * bandwidth shared fairly between copies, uploads from their size, and
 * pveproxy's bounded workers with the per-node request rate.
 */
import { Agent, request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureMessage } from '../../../fixtures';
import { startSimulator, type ClusterDefinition, type Simulator } from '../../../main/simulator';
import { isoUpload, pve, waitTask } from './raw';

const GiB = 1024 ** 3;
/** Timing tests measure simulated time, which event-loop lag on 2 shared cores can only stretch: one retry. */
const TIMING = { retry: 1 };

describe('storage locality and clone refusals (demo cluster)', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: 'demo', timeScale: 0.001 });
  });
  afterAll(async () => sim?.close());

  // pve-storage Plugin.pm parse_config (@SHARED_STORAGE: nfs is always shared); storage.cfg `shared`.
  it('lists nas-nfs as shared and local-lvm as local on /nodes/{node}/storage, /storage and /cluster/resources', async () => {
    const list = (await pve(sim, 'GET', '/nodes/pv1-2/storage')).data as { storage: string; shared: number }[];
    expect(list.find((s) => s.storage === 'nas-nfs')).toMatchObject({ shared: 1 });
    expect(list.find((s) => s.storage === 'local-lvm')).toMatchObject({ shared: 0 });
    const cfg = (await pve(sim, 'GET', '/storage')).data as Record<string, unknown>[];
    expect(cfg.find((s) => s.storage === 'nas-nfs')).toMatchObject({ type: 'nfs', shared: 1, content: 'images,iso' });
    expect(cfg.find((s) => s.storage === 'local-lvm')).not.toHaveProperty('shared');
    const res = (await pve(sim, 'GET', '/cluster/resources', { query: { type: 'storage' } })).data as Record<string, unknown>[];
    const nfs = res.filter((r) => r.storage === 'nas-nfs');
    expect(nfs.map((r) => [r.node, r.shared])).toEqual([
      ['pv1-1', 1],
      ['pv1-2', 1],
      ['pv1-3', 1],
    ]);
    expect(res.filter((r) => r.storage === 'local-lvm').every((r) => r.shared === 0)).toBe(true);
  });

  it('gives each node its own local storage content and one shared content', () => {
    sim.state.putIso('pv1-1', 'nas-nfs', 'shared.iso', new Uint8Array(4));
    sim.state.putIso('pv1-1', 'proxy-seeds', 'local-only.iso', new Uint8Array(4));
    expect(sim.state.iso('pv1-2', 'nas-nfs', 'shared.iso')).toBeDefined();
    expect(sim.state.iso('pv1-2', 'proxy-seeds', 'local-only.iso')).toBeUndefined();
    expect(sim.state.node('pv1-1')!.storages.get('local-lvm')).not.toBe(sim.state.node('pv1-2')!.storages.get('local-lvm'));
    expect(sim.state.node('pv1-1')!.storages.get('nas-nfs')).toBe(sim.state.node('pv1-2')!.storages.get('nas-nfs'));
  });

  // qemu-server src/PVE/API2/Qemu.pm clone_vm: die "can't clone VM to node '$target' (VM uses local storage)\n" if $target && !$sharedvm;
  it('refuses a cross-node clone of a template on local storage, with 500 and clone_vm words, and leaves no VM', async () => {
    const a = await pve(sim, 'POST', '/nodes/pv1-2/qemu/9101/clone', { form: { newid: 160_001, full: 1, target: 'pv1-1' } });
    const text = fixtureMessage('sim_err_clone_local_storage').replace("'pv1-2'", "'pv1-1'");
    expect(text).toBe("can't clone VM to node 'pv1-1' (VM uses local storage)");
    expect([a.status, a.reason, a.json?.message]).toEqual([500, text, `${text}\n`]);
    expect(sim.state.vm(160_001)).toBeUndefined();
  });

  // qemu-server clone_vm: die "can't clone to non-shared storage '$storage'\n" if !$scfg->{shared}; (only with a target)
  it('refuses a cross-node clone onto a non-shared storage, even from a shared template', async () => {
    const a = await pve(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', {
      form: { newid: 160_002, full: 1, target: 'pv1-2', storage: 'local-lvm' },
    });
    const text = fixtureMessage('sim_err_clone_nonshared_storage');
    expect(text).toBe("can't clone to non-shared storage 'local-lvm'");
    expect([a.status, a.reason, a.json?.message]).toEqual([500, text, `${text}\n`]);
    expect(sim.state.vm(160_002)).toBeUndefined();
  });

  // qemu-server clone_vm: `undef $target` when it is the local node; then no locality check applies.
  it('allows target = the template node (local storage), and a cross-node clone from the shared template', async () => {
    const same = await pve(sim, 'POST', '/nodes/pv1-2/qemu/9101/clone', {
      form: { newid: 160_003, full: 1, target: 'pv1-2', storage: 'local-lvm' },
    });
    expect(same.status).toBe(200);
    const cross = await pve(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: { newid: 160_004, full: 1, target: 'pv1-2', name: 'x' } });
    expect(cross.status).toBe(200);
    expect((await waitTask(sim, cross.data as string)).exitstatus).toBe('OK');
    expect((await waitTask(sim, same.data as string)).exitstatus).toBe('OK');
    const vm = sim.state.vm(160_004)!;
    expect(vm.node).toBe('pv1-2');
    // pve-storage Plugin.pm: file storages name volumes <vmid>/vm-<vmid>-disk-<n>.<fmt>.
    expect(vm.config.scsi0).toBe('nas-nfs:160004/vm-160004-disk-1.raw,size=3G');
  });

  // qemu-server clone_vm: die "parameter 'storage' not allowed for linked clones\n" if defined($storage) && !$full;
  it('refuses `storage` on a linked clone (a template without full=1)', async () => {
    const a = await pve(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: { newid: 160_005, storage: 'nas-nfs' } });
    expect([a.status, a.reason]).toEqual([500, fixtureMessage('sim_err_clone_linked_storage')]);
    expect(a.reason).toBe("parameter 'storage' not allowed for linked clones");
  });
});

/** Two nodes, each with its own local `ssd` (200 MB/s) and a template on it holding 3 GiB of data. */
function benchCluster(): ClusterDefinition {
  const node = (name: string, vmid: number) => ({
    node: name,
    storages: [
      { storage: 'ssd', type: 'lvmthin' as const, content: 'images,rootdir', totalBytes: 1000 * GiB, bandwidthBytesPerSec: 200e6 },
      { storage: 'isos', type: 'dir' as const, content: 'iso', totalBytes: 100 * GiB, bandwidthBytesPerSec: 1e6 },
    ],
    bridges: [{ iface: 'vmbr0', vlanAware: true }],
    vms: [{ vmid, template: true, config: { name: `t${vmid}`, scsi0: `ssd:base-${vmid}-disk-0,size=3G`, boot: 'order=scsi0' } }],
  });
  return {
    clusterName: 'bench',
    nodes: [node('n1', 9001), node('n2', 9002)],
    storages: [{ storage: 'only-n1', type: 'lvmthin', content: 'images', totalBytes: GiB, nodes: ['n1'] }],
  };
}

describe('disk bandwidth, fair share on simulated time', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: benchCluster(), timeScale: 0.02, physics: { taskOverheadMs: { qmclone: 0, imgcopy: 0 } } });
  });
  afterAll(async () => sim?.close());

  let nextId = 500;
  const clone = async (node: string, vmid: number) => {
    const a = await pve(sim, 'POST', `/nodes/${node}/qemu/${vmid}/clone`, { form: { newid: nextId++, full: 1 } });
    expect(a.status).toBe(200);
    return a.data as string;
  };
  const simSpan = (upids: string[]) => {
    const tasks = upids.map((u) => sim.tasks.get(u)!);
    return Math.max(...tasks.map((t) => t.simEnd!)) - Math.min(...tasks.map((t) => t.simStart));
  };
  const lone = (3 * GiB) / 200e6; // 16.1 s

  it('exposes the floor: a lone full clone takes data / bandwidth', () => {
    expect(sim.physics.cloneSeconds(9001)).toBeCloseTo(lone, 6);
    expect(sim.physics.bandwidth('n1', 'ssd')).toBe(200e6);
  });

  it('one clone of a 3 GiB disk takes 3 GiB / 200 MB/s; four at once on one storage take ~4x as long', TIMING, async () => {
    const one = await clone('n1', 9001);
    await waitTask(sim, one);
    const single = simSpan([one]) / 1000;
    // Event-loop lag on a busy machine can only lengthen simulated time, so upper bounds are loose.
    expect(single / lone).toBeGreaterThan(0.97);
    expect(single / lone).toBeLessThan(1.25);
    const four = await Promise.all([1, 2, 3, 4].map(() => clone('n1', 9001)));
    for (const u of four) await waitTask(sim, u);
    // Work-conserving fair share: the storage is never idle, so the four end together at 4 x the lone time.
    const ratio = simSpan(four) / 1000 / lone;
    expect(ratio).toBeGreaterThan(3.9);
    expect(ratio).toBeLessThan(4.5);
  });

  it('two clones on different storages (each node its own local ssd) do not slow each other', TIMING, async () => {
    const both = await Promise.all([clone('n1', 9001), clone('n2', 9002)]);
    for (const u of both) await waitTask(sim, u);
    for (const u of both) {
      const t = sim.tasks.get(u)!;
      expect((t.simEnd! - t.simStart) / 1000 / lone).toBeLessThan(1.25); // one shared storage would make it 2
    }
  });

  // pve-storage Storage.pm storage_check_node: die "storage '$storeid' is not available on node '$node'\n"
  it("refuses a storage the clone's node does not have, in pve-storage's words", async () => {
    const a = await pve(sim, 'POST', '/nodes/n2/qemu/9002/clone', { form: { newid: 900, full: 1, storage: 'only-n1' } });
    expect([a.status, a.reason]).toEqual([500, "storage 'only-n1' is not available on node 'n2'"]);
  });

  it('an upload (imgcopy) takes its size / the storage bandwidth', TIMING, async () => {
    const bytes = new Uint8Array(20_000_000); // 20 s at 1 MB/s (400 ms real)
    const a = await pve(sim, 'POST', '/nodes/n1/storage/isos/upload', { body: await isoUpload('big.iso', bytes) });
    expect(a.status).toBe(200);
    await waitTask(sim, a.data as string);
    const seconds = simSpan([a.data as string]) / 1000;
    expect(sim.physics.uploadSeconds('n1', 'isos', bytes.length)).toBeCloseTo(20, 6);
    expect(seconds).toBeGreaterThan(19.8);
    expect(seconds).toBeLessThan(28);
  });

  it('an explicit taskDurations.qmclone still fixes the clone time (backwards compatible)', async () => {
    const fixed = await startSimulator({ dataset: benchCluster(), timeScale: 0.001, taskDurations: { qmclone: 50_000 } });
    try {
      expect(fixed.physics.cloneSeconds(9001)).toBe(50);
      const a = await pve(fixed, 'POST', '/nodes/n1/qemu/9001/clone', { form: { newid: 600, full: 1 } });
      await waitTask(fixed, a.data as string);
      const t = fixed.tasks.get(a.data as string)!;
      expect(t.simEnd! - t.simStart).toBeGreaterThanOrEqual(49_000);
    } finally {
      await fixed.close();
    }
  });
});

describe("pveproxy's workers (pve-manager PVE/Service/pveproxy.pm: max_workers => 3)", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: 'demo', timeScale: 1, agentDelayMs: 0, physics: { requestCostMs: 0 } });
  });
  afterAll(async () => sim?.close());

  const agent = new Agent({ keepAlive: true, maxSockets: 9 });
  afterAll(() => agent.destroy());
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const t = sim.tokens.admin!;
      const started = performance.now();
      const req = request(
        `${sim.url}/api2/json${path}`,
        { agent, ca: sim.caPem, headers: { Authorization: `PVEAPIToken=${t.tokenId}=${t.secret}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now() - started));
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('queues 9 concurrent requests behind 3 workers: latency grows in steps of the request cost', TIMING, async () => {
    sim.load.requestCostMs = 0;
    await Promise.all(Array.from({ length: 9 }, () => get('/version'))); // open 9 keep-alive sockets at no cost
    sim.load.requestCostMs = 100;
    sim.requests.clear();
    const wall = await Promise.all(Array.from({ length: 9 }, () => get('/nodes/pv1-2/status')));
    const latency = sim.requests.records.map((r) => r.latencyMs!).sort((a, b) => a - b);
    expect(sim.requests.records.every((r) => r.loadNode === 'pv1-2')).toBe(true);
    for (const [i, ms] of latency.entries()) {
      const step = (Math.floor(i / 3) + 1) * 100; // 100, 100, 100, 200, 200, 200, 300, 300, 300
      expect(ms).toBeGreaterThan(step - 40);
      expect(ms).toBeLessThanOrEqual(step + 0.001);
    }
    expect(Math.max(...wall)).toBeGreaterThan(250);
    sim.load.requestCostMs = 0;
  });

  it('reports requests per second per node: the path node, else the API node', async () => {
    sim.load.reset();
    for (let i = 0; i < 6; i++) await get('/nodes/pv1-2/status');
    for (let i = 0; i < 3; i++) await get('/cluster/resources');
    await get('/nodes/pv1-3/status'); // down: pv1-1's pveproxy answers 595
    const load = Object.fromEntries(sim.load.perNode().map((l) => [l.node, l]));
    expect(load['pv1-2']!.total).toBe(6);
    expect(load['pv1-1']!.total).toBe(4);
    for (const l of Object.values(load)) expect(l.peak).toBeGreaterThanOrEqual(l.mean);
    expect(load['pv1-2']!.peak).toBe(6); // all within one simulated second at timeScale 1
  });
});
