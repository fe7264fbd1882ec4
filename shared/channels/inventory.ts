/** Channels and events of the inventory: VMs, nodes and storages per cluster, kept current by polling. */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';

const clusterId = boundedText(200);

/** What the table shows; the listing alone cannot tell paused from running, which is fine for a table. */
export const VmRowState = z.enum(['running', 'provisioning', 'stopped', 'locked', 'unknown']);
export type VmRowState = z.infer<typeof VmRowState>;

/**
 * `marked`: the description carries the proxy mark (ours or the operator's: the mark is shared);
 * `foreign`: named or tagged like a proxy, without the mark; `pending`: not yet known (mid-clone, mark not read).
 */
export const VmOwner = z.enum(['marked', 'foreign', 'pending']);
export type VmOwner = z.infer<typeof VmOwner>;

export const VmRow = z
  .object({
    clusterId: z.string(),
    vmid: z.number().int(),
    node: z.string(),
    /** Absent while a clone is still running (F8). */
    name: z.string().optional(),
    state: VmRowState,
    /** The raw status word of the listing (`running`, `stopped`, `unknown`). */
    status: z.string(),
    /** The guest agent's first usable IPv4 while running; absent when unknown. */
    address: z.string().optional(),
    cores: z.number().optional(),
    memoryMiB: z.number().optional(),
    /** The boot disk's size as listed (`maxdisk`): Reconfigure offers only a larger one (issue 16). */
    diskBytes: z.number().optional(),
    /** When the guest last started (ISO time); the view derives the uptime from it. */
    startedAt: z.string().optional(),
    /** From the mark. */
    createdAt: z.string().optional(),
    uid: z.string().optional(),
    owner: VmOwner,
    /** For a marked VM: true when this app made it (its task history knows the UID), false when it has no record of it. */
    ours: z.boolean().optional(),
    /** The profile's template and machine type keys the app made it with; absent for VMs it did not make. */
    template: z.string().optional(),
    /** Absent too when the VM no longer has that type's cores and memory (resized since). */
    machineType: z.string().optional(),
    /** The app keeps the user-data of the seed it last wrote to this VM (sealed, in main): a migrate needs no paste. */
    userDataKept: z.boolean().optional(),
    /** Issue 26: this app released it for the Kubernetes operator's adoption (its mark's uid is empty): operator-made from now on. */
    handedOff: z.boolean().optional(),
    tags: z.array(z.string()),
    lock: z.string().optional(),
  })
  .strict();
export type VmRow = z.infer<typeof VmRow>;

export const StorageRow = z
  .object({
    storage: z.string(),
    status: z.string().optional(),
    content: z.array(z.string()),
    shared: z.boolean(),
    usedBytes: z.number().optional(),
    totalBytes: z.number().optional(),
  })
  .strict();
export type StorageRow = z.infer<typeof StorageRow>;

export const NodeRow = z
  .object({
    node: z.string(),
    status: z.string(),
    /** Fraction of all cores, 0..1. */
    cpu: z.number().optional(),
    maxcpu: z.number().optional(),
    memBytes: z.number().optional(),
    maxmemBytes: z.number().optional(),
    uptimeSeconds: z.number().optional(),
    storages: z.array(StorageRow),
  })
  .strict();
export type NodeRow = z.infer<typeof NodeRow>;

export const InventoryStatus = z
  .object({
    /**
     * `starting` until the first listing answers; `degraded` with a reason while the listing fails or a node is away;
     * `secret-missing` while the cluster's token secret is not held (nothing is listed, nothing is wrong with the cluster).
     */
    state: z.enum(['starting', 'ok', 'degraded', 'secret-missing']),
    reason: z.string().optional(),
    hint: z.string().optional(),
    /** Failed listings in a row; the interval grows with them. */
    failures: z.number().int().nonnegative(),
    /** How long until the next listing, as scheduled after the last one. */
    intervalMs: z.number().nonnegative(),
    lastSuccessAt: z.string().optional(),
  })
  .strict();
export type InventoryStatus = z.infer<typeof InventoryStatus>;

export const ClusterInventory = z
  .object({
    clusterId: z.string(),
    name: z.string(),
    status: InventoryStatus,
    nodes: z.array(NodeRow),
    vms: z.array(VmRow),
  })
  .strict();
export type ClusterInventory = z.infer<typeof ClusterInventory>;

export const InventorySnapshot = z
  .object({
    /** The revision of the last delta included; apply only deltas above it. */
    revision: z.number().int().nonnegative(),
    clusters: z.array(ClusterInventory),
  })
  .strict();
export type InventorySnapshot = z.infer<typeof InventorySnapshot>;

export const InventoryDelta = z
  .object({
    /** One counter over all clusters: a gap means a delta was missed, so ask for a snapshot. */
    revision: z.number().int().positive(),
    clusterId: z.string(),
    added: z.array(VmRow),
    changed: z.array(VmRow),
    /** VMIDs no longer listed. */
    removed: z.array(z.number().int()),
    /** The cluster's node rows in full, when any of them changed. */
    nodes: z.array(NodeRow).optional(),
    /** The cluster's polling status, when it changed. */
    status: InventoryStatus.optional(),
    /** The cluster left the directory: drop everything of it. */
    clusterRemoved: z.boolean().optional(),
  })
  .strict();
export type InventoryDelta = z.infer<typeof InventoryDelta>;

export const inventoryChannels = defineChannels({
  /** Every cluster's rows (or one cluster's), with the revision they reflect. */
  'inventory.snapshot': { input: z.object({ clusterId: clusterId.optional() }).strict(), output: InventorySnapshot },
  /** Refresh one cluster now and answer once its listing is in. */
  'inventory.refresh': { input: z.object({ clusterId }).strict(), output: z.object({ revision: z.number().int() }).strict() },
});

export const inventoryEvents = defineEvents({
  /** What changed in one cluster since the previous revision. */
  'inventory.delta': InventoryDelta,
});
