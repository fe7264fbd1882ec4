/**
 * The RRD service over the simulator (issue 15): series in plain units, the cache per (target, timeframe, cf)
 * counted on the simulator's request log, one request for many asks at once, and a new VM's missing RRD file
 * turned into an empty answer that says why, not an error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { createRrdService, type RrdService } from '../../../../main/services/rrd/service';
import { proxyVm } from '../../../../main/simulator';
import { proxyCluster } from '../../../support/services/inventory/harness';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';

const PROXY = 100_000; // proxyCluster's first proxy, running on pve1
let sc: SimCluster | undefined;
afterEach(async () => {
  await sc?.close();
  sc = undefined;
});

async function start(): Promise<{ sc: SimCluster; rrd: RrdService; clock: { ms: number } }> {
  // timeScale 1: a VM added by a test stays without an RRD file (pvestatd's first 10 s) while the test looks.
  sc = await startSimCluster({ timeScale: 1, agentDelayMs: 0, dataset: proxyCluster(2) });
  const clock = { ms: Date.now() };
  const rrd = createRrdService({ directory: sc.directory, logger: createLogger({ sinks: [] }), now: () => clock.ms, maxEntries: 4 });
  return { sc, rrd, clock };
}

const rrdRequests = (s: SimCluster) => s.sim.requests.records.filter((r) => r.path.endsWith('/rrddata')).length;

describe('rrd service', () => {
  it('answers a VM hour in plain units: CPU a share, memory in bytes under its size, rates per second', async () => {
    const { rrd } = await start();
    const s = await rrd.vm({ clusterId: 'sim', node: 'pve1', vmid: PROXY, timeframe: 'hour' });
    expect(s.empty).toBe(false);
    expect(s.stepSeconds).toBe(60);
    expect(s.times.length).toBe(60);
    const i = s.cpu.findLastIndex((v) => v !== null);
    expect(s.cpu[i]).toBeGreaterThan(0);
    expect(s.cpu[i]).toBeLessThanOrEqual(1);
    expect(s.mem[i]).toBeLessThan(s.maxmem[i]!);
    expect(s.netin[i]).toBeGreaterThan(0);
    expect(s.diskwrite?.[i]).toBeGreaterThan(0);
  });

  it('a node has CPU, memory and network but no disk rates', async () => {
    const { rrd } = await start();
    const s = await rrd.node({ clusterId: 'sim', node: 'pve2', timeframe: 'day' });
    expect(s.target).toBe('node');
    expect(s.empty).toBe(false);
    expect(s.maxmem.at(-1)).toBeGreaterThan(s.mem.at(-1)!);
    expect(s.diskread).toBeUndefined();
  });

  it('a second open within the lifetime sends nothing; another timeframe or cf does; after the step it reads again', async () => {
    const { sc, rrd, clock } = await start();
    sc.sim.requests.clear();
    const q = { clusterId: 'sim', node: 'pve1', vmid: PROXY, timeframe: 'hour' as const };
    const first = await rrd.vm(q);
    expect(await rrd.vm(q)).toBe(first);
    expect(rrdRequests(sc)).toBe(1);
    await rrd.vm({ ...q, timeframe: 'week' });
    await rrd.vm({ ...q, cf: 'MAX' });
    expect(rrdRequests(sc)).toBe(3);
    clock.ms += 61_000; // an hour's step is a minute: a new row may exist
    await rrd.vm(q);
    expect(rrdRequests(sc)).toBe(4);
    clock.ms += 20 * 60_000; // the week's 30-minute step has not passed
    await rrd.vm({ ...q, timeframe: 'week' });
    expect(rrdRequests(sc)).toBe(4);
  });

  it('many opens at once share one request', async () => {
    const { sc, rrd } = await start();
    sc.sim.requests.clear();
    const q = { clusterId: 'sim', node: 'pve1', vmid: PROXY, timeframe: 'day' as const };
    const all = await Promise.all([rrd.vm(q), rrd.vm(q), rrd.vm(q)]);
    expect(new Set(all).size).toBe(1);
    expect(rrdRequests(sc)).toBe(1);
  });

  it('keeps at most its bound of answers: the least recently used is read again', async () => {
    const { sc, rrd } = await start();
    const q = { clusterId: 'sim', node: 'pve1', vmid: PROXY };
    for (const timeframe of ['hour', 'day', 'week', 'month', 'year'] as const) await rrd.vm({ ...q, timeframe });
    sc.sim.requests.clear();
    await rrd.vm({ ...q, timeframe: 'year' }); // kept
    expect(rrdRequests(sc)).toBe(0);
    await rrd.vm({ ...q, timeframe: 'hour' }); // the fifth answer pushed it out (bound 4)
    expect(rrdRequests(sc)).toBe(1);
  });

  it('a VM created seconds ago has no RRD file: an empty answer saying there is no history yet', async () => {
    const { sc, rrd } = await start();
    sc.sim.state.addVm('pve1', proxyVm(100_500, 'proxy-brand-new', 'uid-new', 'running'));
    const s = await rrd.vm({ clusterId: 'sim', node: 'pve1', vmid: 100_500, timeframe: 'hour' });
    expect(s.empty).toBe(true);
    expect(s.times).toEqual([]);
    expect(s.emptyReason).toMatch(/^No history yet for this VM: Proxmox starts recording it/);
  });

  it('any other failure is an error with its class and a hint, and is not cached', async () => {
    const { sc, rrd } = await start();
    sc.sim.faults.inject({ route: '/nodes/{node}/rrddata' }, { kind: 'unreachable', status: 595 }, 1);
    const q = { clusterId: 'sim', node: 'pve2', timeframe: 'hour' as const };
    const err = await rrd.node(q).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'transient', message: expect.stringMatching(/^The history of node pve2 could not be read: /) });
    expect((err as { hint: string }).hint.length).toBeGreaterThan(10);
    expect((await rrd.node(q)).empty).toBe(false);
    await expect(rrd.node({ ...q, clusterId: 'nope' })).rejects.toMatchObject({ kind: 'not-found' });
  });
});
