/**
 * From one all-types `/cluster/resources` listing to the rows the views
 * show: node rows with their storages, and a row per proxy-like VM. Pure:
 * the marks and guest addresses come in from their caches.
 */
import { type ClusterResource, isCandidate, LOCK_SUSPENDED, splitTags } from '../../core';
import type { NodeRow, StorageRow, VmRow, VmRowState } from '../../../shared/channels/inventory';
import type { KnownMark } from './marks';

const MiB = 1024 * 1024;

export function nodeRows(listing: readonly ClusterResource[]): NodeRow[] {
  const storages = new Map<string, StorageRow[]>();
  for (const r of listing) {
    if (r.type !== 'storage' || !r.node || !r.storage) continue;
    const row: StorageRow = { storage: r.storage, content: r.content ?? [], shared: r.shared === true };
    if (r.status !== undefined) row.status = r.status;
    if (r.disk !== undefined) row.usedBytes = r.disk;
    if (r.maxdisk !== undefined) row.totalBytes = r.maxdisk;
    const list = storages.get(r.node) ?? [];
    list.push(row);
    storages.set(r.node, list);
  }
  const rows: NodeRow[] = [];
  for (const r of listing) {
    if (r.type !== 'node' || !r.node) continue;
    const row: NodeRow = { node: r.node, status: r.status ?? 'unknown', storages: storages.get(r.node) ?? [] };
    if (r.cpu !== undefined) row.cpu = r.cpu;
    if (r.maxcpu !== undefined) row.maxcpu = r.maxcpu;
    if (r.mem !== undefined) row.memBytes = r.mem;
    if (r.maxmem !== undefined) row.maxmemBytes = r.maxmem;
    if (r.uptime !== undefined) row.uptimeSeconds = r.uptime;
    rows.push(row);
  }
  return rows.sort((a, b) => a.node.localeCompare(b.node));
}

/**
 * The VMs the inventory shows: named or tagged like a proxy (the core's
 * candidates), plus nameless entries in the profile's VMID range, which are
 * clones still running (F8) and may be ours.
 */
export function isInventoried(r: ClusterResource, vmidRange: { min: number; max: number }): boolean {
  if (isCandidate(r)) return true;
  return r.type === 'qemu' && !r.name && r.template !== true && r.vmid !== undefined && r.vmid >= vmidRange.min && r.vmid <= vmidRange.max;
}

export const isTaskLock = (lock: string | undefined): boolean => !!lock && lock !== LOCK_SUSPENDED;

/**
 * Issue 23 item 13: "provisioning" is a create's first boot, still without its address. A guest that had an address
 * before (a reboot, a stop and start: GuestRuntime.addressedBefore) is running as Proxmox says, its address not back
 * yet. (Not judged from the mark's created-at: a VM made long ago may boot for the first time now, a clone of a slow
 * storage may take long, and the two clocks are the cluster's and this machine's.)
 */
const firstBoot = (facts: RowFacts) => facts.addressedBefore !== true;

function stateOf(r: ClusterResource, marked: boolean, facts: RowFacts): VmRowState {
  if (!r.name && r.lock === 'clone') return 'provisioning';
  if (isTaskLock(r.lock)) return 'locked';
  if (r.status === 'running') return marked && !facts.address && firstBoot(facts) ? 'provisioning' : 'running';
  if (r.status === 'stopped') return 'stopped';
  return 'unknown';
}

/** What this app made a marked VM from (proxy-records.ts), as the inventory is told it. */
export interface ProxyOriginFacts {
  template: string;
  machineType: string;
  /** The app keeps the user-data of the seed it last wrote to the VM. */
  userDataKept?: boolean | undefined;
  /** The machine type's cores and memory in the profile (added by the inventory); absent when the profile lacks it. */
  size?: { cores: number; memoryMiB: number } | undefined;
}

export interface RowFacts {
  mark: KnownMark | undefined;
  address: string | undefined;
  startedAt: string | undefined;
  /** What this app made the VM from (its task history); null when it has no record of making it; undefined when not asked. */
  origin: ProxyOriginFacts | null | undefined;
  /** The guest had an address before, this session (GuestRuntime.addressedBefore). */
  addressedBefore?: boolean;
  /** Issue 26: this app released the VM for the Kubernetes operator (its mark's uid is empty). */
  handedOff?: boolean;
}

export function vmRow(clusterId: string, r: ClusterResource, facts: RowFacts): VmRow {
  const { mark } = facts;
  const marked = mark?.managed === true;
  const row: VmRow = {
    clusterId,
    vmid: r.vmid!,
    node: r.node ?? '',
    state: stateOf(r, marked, facts),
    status: r.status ?? 'unknown',
    owner: mark === undefined ? 'pending' : marked ? 'marked' : 'foreign',
    tags: splitTags(r.tags),
  };
  if (r.name) row.name = r.name;
  if (facts.address && r.status === 'running') row.address = facts.address;
  if (r.maxcpu !== undefined) row.cores = r.maxcpu;
  if (r.maxmem !== undefined) row.memoryMiB = Math.round(r.maxmem / MiB);
  if (r.maxdisk !== undefined) row.diskBytes = r.maxdisk;
  if (facts.startedAt && r.status === 'running') row.startedAt = facts.startedAt;
  if (marked && mark.createdAt) row.createdAt = mark.createdAt;
  if (marked && mark.uid) row.uid = mark.uid;
  if (marked && facts.origin) {
    row.ours = true;
    row.template = facts.origin.template;
    // Issue 23 item 9: the type's name only while the VM has its size (resized in Proxmox, or since: no name).
    const size = facts.origin.size;
    if (!size || (size.cores === row.cores && size.memoryMiB === row.memoryMiB)) row.machineType = facts.origin.machineType;
    if (facts.origin.userDataKept) row.userDataKept = true;
  } else if (marked && facts.origin === null) row.ours = false;
  // Issue 26: a mark with an empty uid (origin null) is the operator's to adopt; handed off when this app released it.
  if (marked && facts.handedOff) row.handedOff = true;
  if (r.lock) row.lock = r.lock;
  return row;
}

/**
 * Whether vmRow would build the same row again: the listing fields it reads
 * (keep in step with vmRow; spelt out, as a keyed loop is several times
 * slower here) and its facts (a KnownMark by identity: the cache keeps it).
 */
export function sameRowSource(before: { r: ClusterResource; facts: RowFacts }, r: ClusterResource, facts: RowFacts): boolean {
  const f = before.facts;
  const b = before.r;
  return (
    f.mark === facts.mark &&
    f.address === facts.address &&
    f.startedAt === facts.startedAt &&
    f.addressedBefore === facts.addressedBefore &&
    f.handedOff === facts.handedOff &&
    (f.origin === null) === (facts.origin === null) &&
    f.origin?.template === facts.origin?.template &&
    f.origin?.machineType === facts.origin?.machineType &&
    f.origin?.userDataKept === facts.origin?.userDataKept &&
    f.origin?.size?.cores === facts.origin?.size?.cores &&
    f.origin?.size?.memoryMiB === facts.origin?.size?.memoryMiB &&
    b.vmid === r.vmid &&
    b.node === r.node &&
    b.status === r.status &&
    b.name === r.name &&
    b.tags === r.tags &&
    b.maxcpu === r.maxcpu &&
    b.maxmem === r.maxmem &&
    b.maxdisk === r.maxdisk &&
    b.lock === r.lock
  );
}
