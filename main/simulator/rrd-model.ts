/**
 * Proxmox's RRD history, simulated: what `GET /nodes/{node}/rrddata` and
 * `GET /nodes/{node}/qemu/{vmid}/rrddata` answer (issue 15). Every value is
 * a pure function of the node or VM, its power history and the calendar, so
 * history exists for the time nobody asked (the app closed), and two asks
 * of the same row agree.
 *
 * How Proxmox builds the answer (sources in the proxmox/* repositories):
 * - pvestatd sends every guest's and the node's status every 10 s
 *   (pve-manager PVE/Service/pvestatd.pm, `$updatetime = 10`; update_qemu_status,
 *   update_node_status); pmxcfs writes it into an RRD file with a 60 s step,
 *   creating the file on the first update (pve-cluster src/pmxcfs/status.c
 *   update_rrd_data, create_rrd_file). A stopped guest still sends maxcpu,
 *   maxmem, maxdisk and disk; cpu, mem and the rates are `U` (unknown).
 * - The API reads it with PVE::RRD::create_rrd_data (pve-cluster src/PVE/RRD.pm):
 *   `[resolution, count]` per timeframe, `ctime = reso * int(time / reso)`,
 *   `RRDs::fetch(file, cf, -s ctime - reso * count, -e ctime - 1, -r reso)`, one
 *   entry per row with `time` and every field that is defined (an unknown field
 *   is left out, so a row of a stopped VM has no `cpu`). The row at `time` T
 *   consolidates (T - reso, T]: AVERAGE or MAX of the 60 s points, known when
 *   at least half of them are (the RRAs' xff 0.5, status.c).
 * - No file yet (a VM created seconds ago): RRDs::fetch fails and the handler
 *   dies, a 500 `RRD error: …No such file or directory` (the text is rrdtool's
 *   rrd_fetch_r error through rrdcached, rrdtool-1.x rrd_client.c; reconstructed,
 *   not captured). qemu-server's rrddata does not look at the VM at all
 *   (src/PVE/API2/Qemu.pm `rrddata`): an unknown VMID answers the same.
 * - Row counts and steps differ by release (versions.ts rrdFormat): 7.4/8.4
 *   read `pve2-*` files (70 rows); 9.x reads `pve-*-9.0` files (1440-row archives).
 *
 * Not modelled: 9.x's reading of a pre-upgrade `pve2` file for old rows (the
 * simulated clusters are fresh installs of their release); rrdcached's
 * flush delay; a node's history while it is down (its rows go on).
 *
 * Long because the model is one chain of pure functions (noise, power
 * history, one 60 s point, the answer) over the constants cited above; the
 * sections below keep it readable as one.
 */
import { bootDiskBytes } from './disks';
import type { SimClock } from './clock';
import { isUp, type SimVm } from './state';
import { NODE_MAXCPU, NODE_MAXMEM } from './views';

export const RRD_TIMEFRAMES = ['hour', 'day', 'week', 'month', 'year'] as const;
export type RrdTimeframe = (typeof RRD_TIMEFRAMES)[number] | 'decade';
export type RrdCf = 'AVERAGE' | 'MAX';
export type RrdFormat = 'pve2' | 'pve-9.0';
export type RrdRow = Record<string, number>;

/** `[resolution seconds, rows]` per timeframe: RRD.pm create_rrd_data's `$setup_pve2` and `$setup`. */
export const RRD_SETUP: Record<RrdFormat, Partial<Record<RrdTimeframe, readonly [number, number]>>> = {
  pve2: {
    hour: [60, 70],
    day: [60 * 30, 70],
    week: [60 * 180, 70],
    month: [60 * 720, 70],
    year: [60 * 10080, 70],
  },
  'pve-9.0': {
    hour: [60, 60],
    day: [60, 1440],
    week: [60 * 30, 336],
    month: [60 * 30, 1440],
    year: [3600 * 6, 1440],
    decade: [86400 * 7, 570],
  },
};

/** The fields (data sources) of each file, in its order (status.c rrd_def_vm_pve9_0, rrd_def_node_pve9_0; pve2: the first 10 and 12). */
const VM_FIELDS: Record<RrdFormat, readonly string[]> = {
  pve2: ['maxcpu', 'cpu', 'maxmem', 'mem', 'maxdisk', 'disk', 'netin', 'netout', 'diskread', 'diskwrite'],
  'pve-9.0': [
    'maxcpu',
    'cpu',
    'maxmem',
    'mem',
    'maxdisk',
    'disk',
    'netin',
    'netout',
    'diskread',
    'diskwrite',
    'memhost',
    'pressurecpusome',
    'pressurecpufull',
    'pressureiosome',
    'pressureiofull',
    'pressurememorysome',
    'pressurememoryfull',
  ],
};
const NODE_FIELDS: Record<RrdFormat, readonly string[]> = {
  pve2: ['loadavg', 'maxcpu', 'cpu', 'iowait', 'memtotal', 'memused', 'swaptotal', 'swapused', 'roottotal', 'rootused', 'netin', 'netout'],
  'pve-9.0': [
    'loadavg',
    'maxcpu',
    'cpu',
    'iowait',
    'memtotal',
    'memused',
    'swaptotal',
    'swapused',
    'roottotal',
    'rootused',
    'netin',
    'netout',
    'memavailable',
    'arcsize',
    'pressurecpusome',
    'pressureiosome',
    'pressureiofull',
    'pressurememorysome',
    'pressurememoryfull',
  ],
};

/** pvestatd's cycle: the first update, and so the file, comes at most this long after a VM is created. */
export const FIRST_UPDATE_MS = 10_000;
/** At most this many 60 s points are read per row; a 7-day row samples them evenly (the simulator's shortcut). */
const SAMPLES_PER_ROW = 12;
const PDP_S = 60;
const DAY_S = 86_400;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

// --- Deterministic noise ------------------------------------------------------

/** A hash of two integers to [0, 1): the same inputs, the same value, on every run. */
function unit(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b ^ 0xc2b2ae35, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

/** A busy-day curve: low at night, high in the afternoon (local to nobody: UTC). */
const diurnal = (t: number) => 0.5 + 0.5 * Math.sin((2 * Math.PI * (t % DAY_S)) / DAY_S - Math.PI * 0.8);

// --- Power history --------------------------------------------------------------

/** Up intervals `[from, to)` in epoch seconds, oldest first; `from` -Infinity when it booted before any history. */
export type UpIntervals = [number, number][];

/**
 * When a VM ran. The dataset's VMs (no createdAt) existed long before the simulator started: a running one
 * booted an hour before (state.ts addVm sets startedAt so) after a minute down, a stopped one stopped a few
 * hours before; each had one 3-hour maintenance stop some days back. From the start on, the VM's powerLog.
 */
export function upIntervals(vm: SimVm, clock: SimClock): UpIntervals {
  if (vm.template) return [];
  const epochS = (simMs: number) => (clock.epochMs + simMs) / 1000;
  const out: UpIntervals = [];
  let openFrom: number | undefined;
  if (vm.createdAt === undefined) {
    const start = epochS(0);
    const initiallyUp = vm.powerLog.length > 0 ? !vm.powerLog[0]!.up : isUp(vm.power);
    const lastBoundary = initiallyUp ? start - 3600 - 60 : start - (2 + (vm.vmid % 20)) * 3600;
    const maintenance = Math.floor((start - (3 + (vm.vmid % 9)) * DAY_S - (vm.vmid % 24) * 3600) / PDP_S) * PDP_S;
    out.push([-Infinity, maintenance], [maintenance + 3 * 3600, lastBoundary]);
    if (initiallyUp) openFrom = start - 3600;
  }
  for (const change of vm.powerLog) {
    if (change.up && openFrom === undefined) openFrom = epochS(change.at);
    else if (!change.up && openFrom !== undefined) {
      out.push([openFrom, epochS(change.at)]);
      openFrom = undefined;
    }
  }
  if (openFrom !== undefined) out.push([openFrom, Infinity]);
  return out;
}

/** The interval holding `t`, or undefined when the VM was down. */
function intervalAt(intervals: UpIntervals, t: number): [number, number] | undefined {
  let lo = 0;
  let hi = intervals.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to] = intervals[mid]!;
    if (t < from) hi = mid - 1;
    else if (t >= to) lo = mid + 1;
    else return intervals[mid];
  }
  return undefined;
}

// --- One 60 s point -------------------------------------------------------------

/** What one 60 s point of a VM holds at `t` (epoch s): every field while it ran; the sizes only while stopped. */
export function vmPoint(vm: SimVm, intervals: UpIntervals, format: RrdFormat, t: number): RrdRow {
  const maxmem = Number(vm.config.memory ?? 512) * MiB;
  const sizes: RrdRow = {
    maxcpu: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
    maxmem,
    maxdisk: bootDiskBytes(vm.config),
    disk: 0, // qemu-server's vmstatus reports 0: it cannot see inside the guest's filesystems.
  };
  const up = intervalAt(intervals, t);
  if (!up) return sizes;
  const id = vm.vmid;
  const minute = Math.floor(t / PDP_S);
  const age = t - up[0]; // Infinity when it booted before any history
  const boot = Math.max(0, 1 - age / 300);
  const noise = unit(id, minute);
  const cpu = Math.min(1, 0.02 + 0.06 * unit(id, 1) + 0.05 * diurnal(t) + 0.08 * noise ** 3 + 0.6 * boot);
  const memLevel = maxmem * (0.3 + 0.15 * unit(id, 2));
  // A booted guest's kernel and services hold about half its settled memory from the first minute (a ramp from 0.3
  // put a 1 GiB guest at 8 % in its boot minute when the slow swing was low: below any real Linux guest).
  const ramp = age < 600 ? 0.5 + (0.5 * age) / 600 : 1;
  const mem = Math.min(maxmem * 0.97, ramp * (memLevel + 0.04 * maxmem * Math.sin(t / 7000 + id) + 0.01 * maxmem * noise));
  // Traffic: a proxy's bytes come in and go out again; now and then a burst of a few minutes.
  const burst = unit(id, Math.floor(t / 300) + 7) > 0.93 ? 10 + 30 * unit(id, Math.floor(t / 300) + 11) : 1;
  const netin = (4 + 28 * unit(id, 3)) * 1024 * (0.3 + diurnal(t)) * burst * (0.8 + 0.4 * noise);
  const netout = netin * (0.95 + 0.1 * unit(id, minute + 1));
  // Disk: the boot reads the image and writes logs; afterwards a trickle and a flush every half hour.
  const bootIo = Math.max(0, 1 - age / 180);
  const diskread = 40 * MiB * bootIo + (2 + 18 * noise) * 1024;
  const flush = minute % 30 === 0 ? 2 * MiB : 0;
  const diskwrite = 8 * MiB * bootIo + (20 + 100 * unit(id, minute + 2)) * 1024 + flush;
  const row: RrdRow = { ...sizes, cpu, mem, netin, netout, diskread, diskwrite };
  if (format === 'pve-9.0') {
    Object.assign(row, {
      memhost: mem * 1.04,
      pressurecpusome: 2 * cpu * noise,
      pressurecpufull: cpu * noise,
      pressureiosome: 5 * bootIo + 0.2 * noise,
      pressureiofull: 3 * bootIo + 0.1 * noise,
      pressurememorysome: 0,
      pressurememoryfull: 0,
    });
  }
  return row;
}

/** A node's 60 s point at `t`: always up (its pvestatd always reports). `seed` tells nodes apart. */
export function nodePoint(seed: number, format: RrdFormat, t: number): RrdRow {
  const minute = Math.floor(t / PDP_S);
  const noise = unit(seed, minute);
  const cpu = Math.min(1, 0.06 + 0.05 * unit(seed, 1) + 0.12 * diurnal(t) + 0.06 * noise ** 2);
  const memused = NODE_MAXMEM * (0.42 + 0.1 * unit(seed, 2) + 0.03 * Math.sin(t / 20_000 + seed));
  const burst = unit(seed, Math.floor(t / 300) + 7) > 0.92 ? 6 : 1;
  const netin = (200 + 800 * diurnal(t)) * 1024 * burst * (0.8 + 0.4 * noise);
  const row: RrdRow = {
    loadavg: cpu * NODE_MAXCPU * 1.1,
    maxcpu: NODE_MAXCPU,
    cpu,
    iowait: 0.004 + 0.03 * unit(seed, minute + 3) ** 4,
    memtotal: NODE_MAXMEM,
    memused,
    swaptotal: 8 * GiB,
    swapused: 64 * MiB + 32 * MiB * unit(seed, 4),
    roottotal: 100 * GiB,
    rootused: 12 * GiB + (t % (30 * DAY_S)) * 40,
    netin,
    netout: netin * (0.9 + 0.2 * unit(seed, minute + 1)),
  };
  if (format === 'pve-9.0') {
    Object.assign(row, {
      memavailable: NODE_MAXMEM - memused,
      arcsize: 0,
      pressurecpusome: 3 * cpu * noise,
      pressureiosome: 0.5 * noise,
      pressureiofull: 0.2 * noise,
      pressurememorysome: 0,
      pressurememoryfull: 0,
    });
  }
  return row;
}

// --- The answer -----------------------------------------------------------------

export interface RrdQuery {
  format: RrdFormat;
  timeframe: RrdTimeframe;
  cf: RrdCf;
  /** The calendar's now, epoch seconds. */
  nowS: number;
  /** The file's fields, in order. */
  fields: readonly string[];
  /** The 60 s point at `t`; undefined where no update was written (before the first one). */
  point(t: number): RrdRow | undefined;
}

/** The rows create_rrd_data answers: `count` rows `reso` apart ending at `ctime`, each field consolidated by `cf`. */
export function rrdRows(q: RrdQuery): RrdRow[] {
  const [reso, count] = RRD_SETUP[q.format][q.timeframe]!;
  const ctime = reso * Math.floor(q.nowS / reso);
  const pointsPerRow = reso / PDP_S;
  const sampled = Math.min(pointsPerRow, SAMPLES_PER_ROW);
  const rows: RrdRow[] = [];
  const n = q.fields.length;
  const sum = new Float64Array(n);
  const max = new Float64Array(n);
  const known = new Uint16Array(n);
  for (let i = 1; i <= count; i++) {
    const time = ctime - reso * count + reso * i;
    sum.fill(0);
    max.fill(-Infinity);
    known.fill(0);
    for (let k = 0; k < sampled; k++) {
      // The 60 s points ending in (time - reso, time], spread evenly when there are more than SAMPLES_PER_ROW.
      const offset = Math.floor(((k + 0.5) * pointsPerRow) / sampled);
      const t = time - reso + PDP_S * (offset + 1);
      if (t > q.nowS) continue; // not written yet: unknown
      const p = q.point(t);
      if (!p) continue;
      for (let f = 0; f < n; f++) {
        const value = p[q.fields[f]!];
        if (value === undefined) continue;
        sum[f]! += value;
        if (value > max[f]!) max[f] = value;
        known[f]!++;
      }
    }
    const row: RrdRow = { time };
    // xff 0.5: a consolidated value needs at least half of its points known.
    for (let f = 0; f < n; f++) if (known[f]! * 2 >= sampled) row[q.fields[f]!] = q.cf === 'MAX' ? max[f]! : sum[f]! / known[f]!;
    rows.push(row);
  }
  // pve-cluster 6126f5d (fix #6615, 9.0.7): the newest row is dropped when it holds only `time`.
  if (q.format === 'pve-9.0' && rows.length > 0 && Object.keys(rows[rows.length - 1]!).length === 1) rows.pop();
  return rows;
}

export function vmRrdFields(format: RrdFormat): readonly string[] {
  return VM_FIELDS[format];
}
export function nodeRrdFields(format: RrdFormat): readonly string[] {
  return NODE_FIELDS[format];
}

/** Whether pmxcfs has written the VM's file yet: on pvestatd's first update after creation. */
export function vmRrdExists(vm: SimVm | undefined, clock: SimClock): vm is SimVm {
  return vm !== undefined && (vm.createdAt === undefined || clock.now() >= vm.createdAt + FIRST_UPDATE_MS);
}

/** The file a timeframe is read from, as the API handlers name it (for the missing-file error). */
export function rrdFilePath(format: RrdFormat, kind: 'vm' | 'node', id: string | number): string {
  return `/var/lib/rrdcached/db/${format === 'pve2' ? `pve2-${kind}` : `pve-${kind}-9.0`}/${id}`;
}

/** The first 60 s point with data: the minute after the first update (epoch s); -Infinity for the dataset's VMs. */
export function firstPointS(vm: SimVm, clock: SimClock): number {
  return vm.createdAt === undefined ? -Infinity : (clock.epochMs + vm.createdAt + FIRST_UPDATE_MS) / 1000;
}
