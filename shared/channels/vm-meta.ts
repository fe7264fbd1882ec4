/**
 * Issue 23: what a Proxmox admin reads and keeps on a proxy beside the app's
 * own records: its Notes (the VM's `description` below the marks) and tags,
 * and the cluster's own task history of it (every Proxmox task that touched
 * it, whoever started it) with each task's log. Read now from the cluster;
 * a write is one config PUT (main/core/provider/operations/notes.ts).
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';
import { MAX_DESCRIPTION } from '../domain/vm-notes';

const target = {
  clusterId: boundedText(200).min(1),
  vmid: z.number().int().min(100).max(999_999_999),
  /** The VM's name as listed: a VM that no longer has it is not-found. */
  name: boundedText(128).min(1),
};

export const VmNotes = z
  .object({
    node: z.string(),
    vmid: z.number().int(),
    /** The description below the marks. */
    notes: z.string(),
    /** The tags but `proxy_operator`. */
    tags: z.array(z.string()),
    /** The VM carries `proxy_operator`, which every write keeps. */
    proxyTag: z.boolean(),
    /** The VM carries the mark: its notes and tags may be written here. */
    marked: z.boolean(),
    /** The config's digest when read; a write sends it back, so an edit made meanwhile is never overwritten. */
    digest: z.string(),
  })
  .strict();
export type VmNotes = z.infer<typeof VmNotes>;

export const HistoryTask = z
  .object({
    upid: z.string(),
    node: z.string(),
    type: z.string(),
    user: z.string(),
    /** Seconds since the epoch. */
    starttime: z.number(),
    endtime: z.number().optional(),
    /** `RUNNING`, `OK`, `WARNINGS: n`, or Proxmox's error text. */
    status: z.string(),
  })
  .strict();
export type HistoryTask = z.infer<typeof HistoryTask>;

export const VmTaskHistory = z
  .object({
    vmid: z.number().int(),
    tasks: z.array(HistoryTask),
    /** Nodes whose list could not be read, and why: tasks that ran there are missing. */
    unread: z.array(z.object({ node: z.string(), reason: z.string() }).strict()),
    /** More tasks exist than the limit shows. */
    truncated: z.boolean(),
  })
  .strict();
export type VmTaskHistory = z.infer<typeof VmTaskHistory>;

/** Issue 25: one of the VM's snapshots as Proxmox lists it (no secret: the core redacts the descriptions it writes). */
export const VmSnapshotRow = z
  .object({
    name: z.string(),
    /** ISO time of Proxmox's snaptime; absent when Proxmox gives none. */
    time: z.string().optional(),
    /** The admin's text as Proxmox keeps it: shown as text. */
    description: z.string(),
    /** Taken by Egress Desk (its name's shape). */
    ours: z.boolean(),
    parent: z.string().optional(),
    /** Saved with the VM's RAM. */
    vmstate: z.boolean(),
    /** `prepare` or `delete` while a task works on it (or after one died half-way). */
    state: z.string().optional(),
  })
  .strict();
export type VmSnapshotRow = z.infer<typeof VmSnapshotRow>;

export const VmSnapshots = z
  .object({
    node: z.string(),
    vmid: z.number().int(),
    /** Every disk of the VM can snapshot. */
    supported: z.boolean(),
    /** When not: the disks that cannot, named with their storage, in words. */
    why: z.string().optional(),
    /** Oldest first. */
    snapshots: z.array(VmSnapshotRow),
    /** The snapshot the VM's current state descends from. */
    current: z.string().optional(),
  })
  .strict();
export type VmSnapshots = z.infer<typeof VmSnapshots>;

export const vmMetaChannels = defineChannels({
  /** A VM's notes and tags, read now (any VM with the name). */
  'vm.notes': { input: z.object(target).strict(), output: VmNotes },
  /** Write a marked VM's notes and/or tags; answers them as Proxmox keeps them. */
  'vm.setNotes': {
    input: z
      .object({
        ...target,
        notes: boundedText(MAX_DESCRIPTION).optional(),
        tags: z.array(boundedText(128)).max(64).optional(),
        digest: boundedText(64),
      })
      .strict(),
    output: VmNotes,
  },
  /** Every Proxmox task of the VM on every online node, newest first, at most `limit` (default 50, at most 200). */
  'vm.taskHistory': {
    input: z.object({ ...target, limit: z.number().int().min(1).max(200).optional() }).strict(),
    output: VmTaskHistory,
  },
  /** Issue 25: the VM's snapshots (the app's and others'), read now, and whether its disks can snapshot. Reads only. */
  'vm.snapshots': { input: z.object(target).strict(), output: VmSnapshots },
  /** A page of one of the VM's tasks' log (at most 1000 lines). */
  'vm.taskLog': {
    input: z
      .object({
        clusterId: target.clusterId,
        vmid: target.vmid,
        upid: boundedText(512).min(1),
        start: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    output: z.object({ lines: z.array(z.object({ n: z.number(), t: z.string() }).strict()), total: z.number() }).strict(),
  },
});
