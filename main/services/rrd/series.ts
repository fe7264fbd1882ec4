/**
 * Proxmox's RRD rows as the renderer's series: one array per measure, aligned on `times`, in plain units
 * (CPU a share 0..1, memory in bytes, network and disk in bytes per second; Proxmox's DERIVE data sources
 * are already per second). A missing field is null: a gap, never a zero.
 */
import type { NodeRrdRow, VmRrdRow } from '../../core';
import type { RrdCf, RrdSeries, RrdTimeframe } from '../../../shared/channels/rrd';

const orNull = (v: number | undefined) => (v === undefined ? null : v);

/** The step between rows: the most common difference (a 9.x answer can mix an old file's step with the new one's). */
export function stepOf(times: readonly number[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < times.length; i++) {
    const d = times[i]! - times[i - 1]!;
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 60;
  let seen = 0;
  for (const [d, n] of counts)
    if (n > seen) {
      best = d;
      seen = n;
    }
  return best;
}

const hasAny = (...arrays: (number | null)[][]) => arrays.some((a) => a.some((v) => v !== null));

interface Meta {
  timeframe: RrdTimeframe;
  cf: RrdCf;
  fetchedAt: string;
}

export function vmSeries(rows: readonly VmRrdRow[], meta: Meta): RrdSeries {
  const sorted = [...rows].sort((a, b) => a.time - b.time);
  const times = sorted.map((r) => r.time);
  const cpu = sorted.map((r) => orNull(r.cpu));
  const mem = sorted.map((r) => orNull(r.mem));
  const netin = sorted.map((r) => orNull(r.netin));
  const netout = sorted.map((r) => orNull(r.netout));
  const diskread = sorted.map((r) => orNull(r.diskread));
  const diskwrite = sorted.map((r) => orNull(r.diskwrite));
  const empty = !hasAny(cpu, mem, netin, netout, diskread, diskwrite);
  return {
    target: 'vm',
    ...meta,
    stepSeconds: stepOf(times),
    times,
    cpu,
    mem,
    maxmem: sorted.map((r) => orNull(r.maxmem)),
    netin,
    netout,
    diskread,
    diskwrite,
    empty,
    ...(empty
      ? {
          emptyReason:
            rows.length === 0 || sorted.every((r) => r.maxmem === undefined)
              ? 'No history yet: Proxmox records a VM one point a minute from its first status update, a few seconds after it is created.'
              : 'Nothing recorded in this timeframe: the VM was not running.',
        }
      : {}),
  };
}

export function nodeSeries(rows: readonly NodeRrdRow[], meta: Meta): RrdSeries {
  const sorted = [...rows].sort((a, b) => a.time - b.time);
  const times = sorted.map((r) => r.time);
  const cpu = sorted.map((r) => orNull(r.cpu));
  const mem = sorted.map((r) => orNull(r.memused));
  const netin = sorted.map((r) => orNull(r.netin));
  const netout = sorted.map((r) => orNull(r.netout));
  const empty = !hasAny(cpu, mem, netin, netout);
  return {
    target: 'node',
    ...meta,
    stepSeconds: stepOf(times),
    times,
    cpu,
    mem,
    maxmem: sorted.map((r) => orNull(r.memtotal)),
    netin,
    netout,
    empty,
    ...(empty ? { emptyReason: 'Proxmox has recorded nothing for this node in this timeframe.' } : {}),
  };
}

/** The answer for a VM whose RRD file does not exist yet (RrdMissingError): nothing to draw, and why. */
export function noHistory(target: 'vm' | 'node', reason: string, meta: Meta): RrdSeries {
  const none: (number | null)[] = [];
  return {
    target,
    ...meta,
    stepSeconds: 60,
    times: [],
    cpu: none,
    mem: none,
    maxmem: none,
    netin: none,
    netout: none,
    empty: true,
    emptyReason: reason,
  };
}
