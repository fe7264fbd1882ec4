/**
 * The simulator's RRD history (main/simulator/rrd-model.ts, routes/rrd.ts), seen raw: per release the rows and
 * their spacing that pve-cluster's PVE::RRD::create_rrd_data answers, AVERAGE against MAX, gaps where the VM
 * was stopped, and Proxmox's answer for a VM whose RRD file pmxcfs has not written yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalCluster, proxyVm, startSimulator, type PveVersion, type Simulator } from '../../../main/simulator';
import type { SimClock } from '../../../main/simulator/clock';
import { upIntervals } from '../../../main/simulator/rrd-model';
import type { SimVm } from '../../../main/simulator/state';
import { pve } from './raw';

type Row = Record<string, number>;
const RUNNING = 130;
const STOPPED = 100; // minimalCluster's plainVm: stopped

const sims = new Map<PveVersion, Simulator>();
beforeAll(async () => {
  for (const version of ['7.4', '8.4', '9.2'] as const) {
    const dataset = minimalCluster();
    dataset.nodes[0]!.vms.push(proxyVm(RUNNING, 'proxy-rrd', 'uid-rrd', 'running'));
    // timeScale 1: a VM added by a test stays "new" (no RRD file for pvestatd's first 10 s) while the test looks.
    sims.set(version, await startSimulator({ dataset, version, timeScale: 1 }));
  }
});
afterAll(async () => {
  for (const sim of sims.values()) await sim.close();
});

async function rows(version: PveVersion, path: string, timeframe: string, cf?: string): Promise<Row[]> {
  const a = await pve(sims.get(version)!, 'GET', path, { query: { timeframe, ...(cf ? { cf } : {}) } });
  expect(a.status, `${path} ${timeframe}: ${a.reason}`).toBe(200);
  return a.data as Row[];
}

const spacing = (r: Row[]) => new Set(r.slice(1).map((row, i) => row.time! - r[i]!.time!));
const vmPath = (vmid: number) => `/nodes/pv1-1/qemu/${vmid}/rrddata`;

// [resolution seconds, rows] from pve-cluster src/PVE/RRD.pm: $setup_pve2 (7.4, 8.4) and $setup (9.x).
const expected: Record<string, Record<string, [number, number]>> = {
  pve2: { hour: [60, 70], day: [1800, 70], week: [10800, 70], month: [43200, 70], year: [604800, 70] },
  'pve-9.0': { hour: [60, 60], day: [60, 1440], week: [1800, 336], month: [1800, 1440], year: [21600, 1440] },
};

describe('rrddata rows per release and timeframe', () => {
  for (const version of ['7.4', '8.4', '9.2'] as const) {
    const format = version === '9.2' ? 'pve-9.0' : 'pve2';
    for (const [timeframe, [step, count]] of Object.entries(expected[format]!)) {
      it(`${version} ${timeframe}: ${count} rows ${step} s apart, ending at the last whole step`, async () => {
        const r = await rows(version, vmPath(RUNNING), timeframe);
        // 9.x drops a newest row holding only `time` (fix #6615); the running VM's newest row has data.
        expect(r.length).toBe(count);
        expect([...spacing(r)]).toEqual([step]);
        const last = r[r.length - 1]!.time!;
        expect(last % step).toBe(0);
        expect(Date.now() / 1000 - last).toBeLessThan(step + 5);
        const node = await rows(version, '/nodes/pv1-1/rrddata', timeframe);
        expect(node.length).toBe(count);
      });
    }
  }

  it('9.2 names the fields of the pve-*-9.0 files; 8.4 only the pve2 ones', async () => {
    const nine = (await rows('9.2', vmPath(RUNNING), 'hour')).at(-1)!;
    const eight = (await rows('8.4', vmPath(RUNNING), 'hour')).at(-1)!;
    expect(nine).toHaveProperty('memhost');
    expect(nine).toHaveProperty('pressurecpusome');
    expect(eight).not.toHaveProperty('memhost');
    for (const field of ['cpu', 'maxcpu', 'mem', 'maxmem', 'netin', 'netout', 'diskread', 'diskwrite']) {
      expect(eight, field).toHaveProperty(field);
      expect(nine, field).toHaveProperty(field);
    }
    const nodeNine = (await rows('9.2', '/nodes/pv1-1/rrddata', 'hour')).at(-1)!;
    expect(nodeNine).toHaveProperty('memavailable');
    expect(nodeNine).not.toHaveProperty('diskread');
    expect((await rows('8.4', '/nodes/pv1-1/rrddata', 'hour')).at(-1)).not.toHaveProperty('memavailable');
  });

  it('refuses the node timeframe `decade` before 9.0, as the older schema had no such value', async () => {
    expect((await pve(sims.get('8.4')!, 'GET', '/nodes/pv1-1/rrddata', { query: { timeframe: 'decade' } })).status).toBe(400);
    expect((await rows('9.2', '/nodes/pv1-1/rrddata', 'decade')).length).toBe(570);
  });
});

describe('consolidation and gaps', () => {
  it('MAX is at least AVERAGE in every row, and above it where the minutes differ', async () => {
    const avg = await rows('9.2', vmPath(RUNNING), 'week', 'AVERAGE');
    const max = await rows('9.2', vmPath(RUNNING), 'week', 'MAX');
    // The same rows, unless a 30-minute step ended between the two asks.
    const avgAt = new Map(avg.map((r) => [r.time, r]));
    const pairs = max.filter((m) => avgAt.has(m.time!));
    expect(pairs.length).toBeGreaterThanOrEqual(max.length - 1);
    let higher = 0;
    pairs.forEach((m) => {
      const a = avgAt.get(m.time!)!;
      if (m.cpu === undefined) return expect(a.cpu).toBeUndefined();
      expect(m.cpu).toBeGreaterThanOrEqual(a.cpu!);
      if (m.cpu > a.cpu! * 1.01) higher++;
    });
    expect(higher).toBeGreaterThan(max.length / 2);
  });

  it('the same row answers the same values when asked again (history is a function of time)', async () => {
    const first = await rows('9.2', vmPath(RUNNING), 'day');
    const second = await rows('9.2', vmPath(RUNNING), 'day');
    const common = second.filter((r) => first.some((f) => f.time === r.time));
    expect(common.length).toBeGreaterThan(1000);
    for (const r of common.slice(0, 1000)) expect(r).toEqual(first.find((f) => f.time === r.time));
  });

  it('a stopped VM has its sizes but no cpu, memory or traffic in the rows since it stopped', async () => {
    const r = await rows('9.2', vmPath(STOPPED), 'hour');
    expect(r.length).toBeGreaterThan(0);
    for (const row of r) {
      expect(row).toHaveProperty('maxmem');
      expect(row).not.toHaveProperty('cpu');
      expect(row).not.toHaveProperty('netin');
    }
    // It ran before it stopped: the month shows both.
    const month = await rows('9.2', vmPath(STOPPED), 'month');
    expect(month.some((row) => row.cpu !== undefined)).toBe(true);
    expect(month.some((row) => row.cpu === undefined)).toBe(true);
  });

  it('plausible curves: memory near its size, CPU a share, a boot shows disk reads', async () => {
    const r = await rows('9.2', vmPath(RUNNING), 'day');
    for (const row of r.filter((x) => x.mem !== undefined)) {
      expect(row.mem).toBeLessThan(row.maxmem!);
      expect(row.mem).toBeGreaterThan(row.maxmem! * 0.1);
      expect(row.cpu).toBeGreaterThanOrEqual(0);
      expect(row.cpu).toBeLessThanOrEqual(1);
    }
    // The dataset VM booted an hour before the simulator started: the day's minutes hold the boot's disk reads.
    const boot = r.filter((x) => x.diskread !== undefined && x.diskread > 10 * 1024 * 1024);
    expect(boot.length).toBeGreaterThan(0);
    expect(boot.length).toBeLessThanOrEqual(4); // about three minutes, then a trickle
  });
});

describe('power history', () => {
  it('each recorded stop and start closes and opens a running interval; a template never runs', () => {
    const clock = { epochMs: 1_000_000_000, now: () => 0 } as SimClock;
    const vm = {
      vmid: 500,
      template: false,
      power: 'running',
      config: {},
      createdAt: 0,
      powerLog: [
        { at: 0, up: true },
        { at: 600_000, up: false },
        { at: 1_200_000, up: true },
      ],
    } as unknown as SimVm;
    expect(upIntervals(vm, clock)).toEqual([
      [1_000_000, 1_000_600],
      [1_001_200, Infinity],
    ]);
    expect(upIntervals({ ...vm, template: true }, clock)).toEqual([]);
  });
});

describe('a VM newer than its history', () => {
  it('answers 500 "RRD error: … No such file or directory" before pvestatd first reports it', async () => {
    const sim = sims.get('9.2')!;
    sim.state.addVm('pv1-1', { vmid: 777, config: { name: 'brand-new', memory: 1024 }, power: 'running' });
    const a = await pve(sim, 'GET', vmPath(777), { query: { timeframe: 'hour' } });
    expect(a.status).toBe(500);
    expect(a.json?.message).toMatch(/^RRD error: .*pve-vm-9\.0\/777': No such file or directory\n$/);
    const old = sims.get('8.4')!;
    old.state.addVm('pv1-1', { vmid: 777, config: { name: 'brand-new' } });
    expect((await pve(old, 'GET', vmPath(777), { query: { timeframe: 'hour' } })).json?.message).toMatch(/pve2-vm\/777'/);
  });

  it('an unknown VMID answers the same: qemu-server only names the file', async () => {
    const a = await pve(sims.get('9.2')!, 'GET', vmPath(4242), { query: { timeframe: 'day' } });
    expect(a.status).toBe(500);
    expect(a.json?.message).toMatch(/No such file or directory/);
  });
});
