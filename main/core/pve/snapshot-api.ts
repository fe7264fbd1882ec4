/**
 * Issue 25: a VM's snapshots, as qemu-server serves them (proxmox/qemu-server@e6352be6 src/PVE/API2/Qemu.pm
 * snapshot_list, snapshot, rollback, delsnapshot, get_snapshot_config). A seam of its own, as rrd-api.ts is, so
 * PveApi's other implementers need not grow; createPveClient spreads snapshotMethods.
 *
 * The list answers every `[snapname]` section (name, snaptime, vmstate 0/1, description, parent when set,
 * snapstate while a create or delete runs) and then `current` ("You are here!", with digest, running and parent).
 * Create, rollback and delete answer a UPID (tasks qmsnapshot, qmrollback, qmdelsnapshot); their refusals are
 * mostly inside the task (pve-guest-common AbstractConfig.pm __snapshot_prepare, snapshot_rollback, snapshot_delete).
 */
import { z } from 'zod';
import type { CallOptions } from './api';
import { pveBoolean, pveNumber } from './scalars';
import { UpidSchema } from './schemas';
import { exchangeOptions, type Exchange } from './transport';

export const SnapshotEntrySchema = z.object({
  name: z.string(),
  snaptime: pveNumber.optional(),
  vmstate: pveBoolean.optional(),
  description: z.string().optional(),
  parent: z.string().optional(),
  snapstate: z.string().optional(),
  running: pveBoolean.optional(),
  digest: z.string().optional(),
});
export type SnapshotEntry = z.output<typeof SnapshotEntrySchema>;
export const SnapshotListSchema = z.array(SnapshotEntrySchema);

/** A section's config: the VM's keys as they were, and snaptime, description, parent, vmstate. */
export const SnapshotConfigSchema = z.record(z.string(), z.union([z.string(), z.number()]).transform(String));

export interface SnapshotCreateParams {
  /** pve-snapshot-name: `^[a-z][a-z0-9_-]+$`i, at most 40 characters; not `current` or `pending`. */
  snapname: string;
  description?: string;
  /** Save the RAM too (a running VM); Egress Desk never does. */
  vmstate?: 0 | 1;
}

export interface SnapshotApi {
  /** GET /nodes/{node}/qemu/{vmid}/snapshot; needs VM.Audit. Includes the `current` entry. */
  snapshots(node: string, vmid: number, opts?: CallOptions): Promise<SnapshotEntry[]>;
  /** POST /nodes/{node}/qemu/{vmid}/snapshot: a `qmsnapshot` task; needs VM.Snapshot. */
  createSnapshot(node: string, vmid: number, params: SnapshotCreateParams, opts?: CallOptions): Promise<string>;
  /** GET …/snapshot/{snapname}/config; needs VM.Snapshot, VM.Snapshot.Rollback or VM.Audit. */
  snapshotConfig(node: string, vmid: number, snapname: string, opts?: CallOptions): Promise<Record<string, string>>;
  /** POST …/snapshot/{snapname}/rollback: a `qmrollback` task; needs VM.Snapshot or VM.Snapshot.Rollback (9.2: and VM.PowerMgmt with start). */
  rollbackSnapshot(node: string, vmid: number, snapname: string, params?: { start?: 0 | 1 }, opts?: CallOptions): Promise<string>;
  /** DELETE …/snapshot/{snapname}: a `qmdelsnapshot` task; needs VM.Snapshot. */
  deleteSnapshot(node: string, vmid: number, snapname: string, opts?: CallOptions): Promise<string>;
}

const defined = (o: object): Record<string, string | number> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string | number>;

type Call = <Sch extends z.ZodType>(schema: Sch, ex: Exchange) => Promise<z.output<Sch>>;

export function snapshotMethods(call: Call): SnapshotApi {
  const base = '/nodes/{node}/qemu/{vmid}/snapshot';
  return {
    snapshots: (node, vmid, o) =>
      call(SnapshotListSchema, { method: 'GET', template: base, params: { node, vmid }, ...exchangeOptions(o) }),
    createSnapshot: (node, vmid, params, o) =>
      call(UpidSchema, { method: 'POST', template: base, params: { node, vmid }, form: defined(params), ...exchangeOptions(o) }),
    snapshotConfig: (node, vmid, snapname, o) =>
      call(SnapshotConfigSchema, {
        method: 'GET',
        template: `${base}/{snapname}/config`,
        params: { node, vmid, snapname },
        ...exchangeOptions(o),
      }),
    rollbackSnapshot: (node, vmid, snapname, params, o) =>
      call(UpidSchema, {
        method: 'POST',
        template: `${base}/{snapname}/rollback`,
        params: { node, vmid, snapname },
        form: defined(params ?? {}),
        ...exchangeOptions(o),
      }),
    deleteSnapshot: (node, vmid, snapname, o) =>
      call(UpidSchema, { method: 'DELETE', template: `${base}/{snapname}`, params: { node, vmid, snapname }, ...exchangeOptions(o) }),
  };
}

/** The snapshot methods of an API object, or undefined when it has none (a fake PveApi of an older test). */
export function snapshotApiOf(api: object): SnapshotApi | undefined {
  const a = api as Partial<SnapshotApi>;
  return a.snapshots && a.createSnapshot && a.rollbackSnapshot && a.deleteSnapshot && a.snapshotConfig ? (a as SnapshotApi) : undefined;
}
