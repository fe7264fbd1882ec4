/**
 * Proxmox's own history (issue 15): the RRD endpoints, their answers' schemas and the error of a VM that has
 * none yet. A separate seam, as build-api.ts is, so PveApi's other implementers need not grow; createPveClient
 * spreads rrdMethods.
 *
 * Both answers are PVE::RRD::create_rrd_data's (pve-cluster src/PVE/RRD.pm): an array of rows, each with
 * `time` (epoch seconds of the row's end) and every data source that was known in that step. A field is
 * absent, never null, where it was unknown (a stopped VM has no `cpu`), but a proxy or an older release may
 * send null, so both are read as missing. Fields by release: 7.4/8.4 (`pve2-*` files) and 9.x (`pve-*-9.0`,
 * which add memhost and pressures to VMs, memavailable and arcsize to nodes); nothing else is relied on.
 */
import { z } from 'zod';
import type { CallOptions } from './api';
import { ApiError, ClassifiedError, type CallSite } from './errors';
import { pveNumber } from './scalars';
import { exchangeOptions, type Exchange } from './transport';

export const RRD_TIMEFRAMES = ['hour', 'day', 'week', 'month', 'year'] as const;
export type RrdTimeframe = (typeof RRD_TIMEFRAMES)[number];
export type RrdCf = 'AVERAGE' | 'MAX';

/** A value that may be missing: absent, null, or (as RRDs sometimes prints unknowns) NaN text. */
const maybe = z
  .union([pveNumber, z.null(), z.literal('NaN'), z.nan()])
  .optional()
  .transform((v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined));

/** One row of `GET /nodes/{node}/qemu/{vmid}/rrddata`. cpu is a share of maxcpu (0..1); rates are bytes/s. */
export const VmRrdRowSchema = z.object({
  time: pveNumber,
  cpu: maybe,
  maxcpu: maybe,
  mem: maybe,
  maxmem: maybe,
  disk: maybe,
  maxdisk: maybe,
  netin: maybe,
  netout: maybe,
  diskread: maybe,
  diskwrite: maybe,
  /** 9.x: the memory the host sees the guest's processes use. */
  memhost: maybe,
});
export type VmRrdRow = z.output<typeof VmRrdRowSchema>;

/** One row of `GET /nodes/{node}/rrddata`. A node records no disk I/O rates; iowait is a share of CPU time. */
export const NodeRrdRowSchema = z.object({
  time: pveNumber,
  cpu: maybe,
  maxcpu: maybe,
  loadavg: maybe,
  iowait: maybe,
  memtotal: maybe,
  memused: maybe,
  /** 9.x; 9.0.5 and older wrote it as memfree, which RRD.pm copies here (e2c5728). */
  memavailable: maybe,
  netin: maybe,
  netout: maybe,
  roottotal: maybe,
  rootused: maybe,
});
export type NodeRrdRow = z.output<typeof NodeRrdRowSchema>;

export const VmRrdSchema = z.array(VmRrdRowSchema);
export const NodeRrdSchema = z.array(NodeRrdRowSchema);

/**
 * The RRD file does not exist (yet): Proxmox's handler dies with RRDs::fetch's error, a 500
 * `RRD error: … opening '/var/lib/rrdcached/db/pve-vm-9.0/<vmid>': No such file or directory`
 * (`pve2-vm/<vmid>` before 9.0). pmxcfs writes the file on pvestatd's first status update of the guest,
 * within about 10 s of its creation (pve-manager PVE/Service/pvestatd.pm, `$updatetime = 10`); a VMID
 * that never existed answers the same. Not found: there is nothing to show, and asking again later helps.
 */
export class RrdMissingError extends ClassifiedError {
  override readonly name = 'RrdMissingError';
  readonly failureClass = 'not-found';
  constructor(
    readonly target: 'vm' | 'node',
    readonly call: CallSite,
  ) {
    super(
      target === 'vm'
        ? 'No history yet for this VM: Proxmox starts recording it with its first status update, a few seconds after the VM is created, one point a minute.'
        : 'Proxmox has no history file for this node.',
    );
  }
}

/** The 500 of RRDs::fetch on a missing file; the text is rrdtool's, reconstructed from its source, not captured. */
export function isRrdFileMissing(err: unknown): boolean {
  return err instanceof ApiError && err.status === 500 && /^RRD error: .*No such file or directory$/.test(err.message);
}

export interface RrdApi {
  /** GET /nodes/{node}/qemu/{vmid}/rrddata?timeframe=&cf=; needs VM.Audit on /vms/{vmid}. Throws RrdMissingError for a VM with no file. */
  vmRrd(node: string, vmid: number, timeframe: RrdTimeframe, cf?: RrdCf, opts?: CallOptions): Promise<VmRrdRow[]>;
  /** GET /nodes/{node}/rrddata?timeframe=&cf=; needs Sys.Audit on /nodes/{node}. */
  nodeRrd(node: string, timeframe: RrdTimeframe, cf?: RrdCf, opts?: CallOptions): Promise<NodeRrdRow[]>;
}

type Call = <Sch extends z.ZodType>(schema: Sch, ex: Exchange) => Promise<z.output<Sch>>;

export function rrdMethods(call: Call): RrdApi {
  const read = async <Sch extends z.ZodType>(schema: Sch, ex: Exchange, target: 'vm' | 'node') => {
    try {
      return await call(schema, ex);
    } catch (err) {
      if (isRrdFileMissing(err)) throw new RrdMissingError(target, { method: ex.method, path: (err as ApiError).path });
      throw err;
    }
  };
  return {
    vmRrd: (node, vmid, timeframe, cf, o) =>
      read(
        VmRrdSchema,
        {
          method: 'GET',
          template: '/nodes/{node}/qemu/{vmid}/rrddata',
          params: { node, vmid },
          query: { timeframe, cf },
          ...exchangeOptions(o),
        },
        'vm',
      ),
    nodeRrd: (node, timeframe, cf, o) =>
      read(
        NodeRrdSchema,
        { method: 'GET', template: '/nodes/{node}/rrddata', params: { node }, query: { timeframe, cf }, ...exchangeOptions(o) },
        'node',
      ),
  };
}
