/**
 * Who owns what. Finding the VM a create should use (spec entry 2): by name
 * first, then by probing the deterministic VMIDs. Every taken VMID that is
 * nameless (a clone in progress, F8) or carries our name goes through the
 * ownership check, which waits for its lock; a VM listed under another name
 * is probed past at once, whatever its lock (review finding P2). Below that,
 * the two checks every destructive path makes right before its request: the
 * VM's identity (name, mark, UID) and who uses a seed.
 */
import type { PveApi } from '../../pve/api';
import { isConfigAlreadyExists } from '../../pve/errors';
import type { ClusterResource, CoreContext, VmConfig } from '../calls/context';
import { permanent, transient } from '../rules/errors';
import { parseMark } from '../rules/mark';
import type { CreateRequest } from './placement';
import { isTemplate } from './resources';
import { LOCK_SUSPENDED, waitUnlocked } from '../calls/tasks';
import { vmidFor } from '../rules/vmid';

export interface OwnedVm {
  node: string;
  vmid: number;
  /** The config as last read: the config and resize steps start from it. */
  config: VmConfig;
}

export const MAX_PROBES = 32;

export function nodeOf(r: ClusterResource): string {
  if (!r.node) throw transient(`VM ${r.vmid} is listed without a node; try again when the cluster has settled`);
  return r.node;
}

/** Two or more VMs with the name are for an admin to sort out; one goes through the ownership check. */
export async function adoptByName(
  ctx: CoreContext,
  resources: readonly ClusterResource[],
  request: CreateRequest,
  signal?: AbortSignal,
): Promise<OwnedVm | undefined> {
  const named = resources.filter((r) => r.type === 'qemu' && !isTemplate(r) && r.name === request.name);
  if (named.length > 1) {
    const vmids = named.map((r) => r.vmid).join(', ');
    throw permanent(`VMs ${vmids} are all named ${request.name}`, 'Remove all but one of them in Proxmox, then try again.');
  }
  const [only] = named;
  return only ? inspect(ctx, only, request, signal) : undefined;
}

/**
 * The ownership check on a taken VMID: wait out a task's lock, then judge by
 * name and mark. Another name is someone else's VM (undefined); our name
 * without our mark is never taken over.
 */
export async function inspect(
  ctx: CoreContext,
  r: ClusterResource,
  request: CreateRequest,
  signal?: AbortSignal,
): Promise<OwnedVm | undefined> {
  const vmid = r.vmid ?? 0;
  const node = nodeOf(r);
  const config = await waitUnlocked(ctx, node, vmid, signal);
  if (config.name !== request.name) return undefined;
  const mark = parseMark(config.description);
  if (!mark.managed) {
    throw permanent(
      `VM ${vmid} is named ${request.name} but carries no Egress Desk mark; it was not created here`,
      'Rename or remove that VM in Proxmox, or give this proxy another name.',
    );
  }
  if (mark.uid !== '' && mark.uid !== request.uid) {
    throw permanent(
      `VM ${vmid} named ${request.name} belongs to proxy uid ${mark.uid}, not ${request.uid}`,
      'Remove that VM, or give this proxy another name.',
    );
  }
  if (config.lock === LOCK_SUSPENDED) {
    throw permanent(`VM ${vmid} named ${request.name} is hibernated (lock suspended)`, 'Resume or destroy it in Proxmox, then try again.');
  }
  return { node, vmid, config };
}

/** Only a nameless entry (a clone in progress) or one with our name can be ours. */
function mightBeOurs(r: ClusterResource, name: string): boolean {
  return r.type === 'qemu' && !isTemplate(r) && (!r.name || r.name === name);
}

export type CloneOnto = (vmid: number) => Promise<OwnedVm>;

/**
 * The probe: the attempt-th VMID for the UID is cloned onto when the listing
 * shows it free, and put through the ownership check when it is taken, or
 * when the clone finds it taken after all (F4: someone won the race).
 */
export async function allocate(
  ctx: CoreContext,
  resources: readonly ClusterResource[],
  request: CreateRequest,
  cloneOnto: CloneOnto,
  signal?: AbortSignal,
): Promise<{ vm: OwnedVm; adopted: boolean }> {
  const taken = new Map(resources.filter((r) => r.vmid !== undefined).map((r) => [r.vmid!, r]));
  const range = ctx.profile.vmidRange;
  const probes = Math.min(MAX_PROBES, range.max - range.min + 1);
  for (let attempt = 0; attempt < probes; attempt++) {
    const vmid = vmidFor(request.uid, range, attempt);
    let entry = taken.get(vmid);
    if (!entry) {
      try {
        return { vm: await cloneOnto(vmid), adopted: false };
      } catch (e) {
        if (!isConfigAlreadyExists(e)) throw e;
      }
      entry = (await ctx.api.clusterResources('vm', { signal })).find((r) => r.vmid === vmid);
      if (!entry) continue;
    }
    if (mightBeOurs(entry, request.name)) {
      const vm = await inspect(ctx, entry, request, signal);
      if (vm) return { vm, adopted: true };
    }
    ctx.log.info('proxmox vmid taken by another vm, probing on', { vmid, attempt });
  }
  throw transient(
    `no free VMID for ${request.name} after ${probes} probes in ${range.min}..${range.max}`,
    'Widen the VMID range in the profile, or free VMIDs in it.',
  );
}

/** The proxy a destructive call means: its name, and the UID its mark must carry when the caller knows it. */
export interface Wanted {
  name: string;
  /** Undefined: any marked VM with the name (spec entry 11). */
  uid?: string;
}

/**
 * The identity check every destructive path makes on the VM at a VMID, its
 * config just read: why it is not the VM wanted, in plain words, or
 * undefined when its name, its mark and (when wanted) the mark's UID agree.
 */
export function notTheOne(vmid: number, config: VmConfig, want: Wanted): string | undefined {
  if (config.name !== want.name) {
    return `VM ${vmid} ${config.name ? `is named ${config.name}` : 'has no name (a clone may still be running on it)'}, not ${want.name}`;
  }
  const mark = parseMark(config.description);
  if (!mark.managed) return `VM ${vmid} named ${want.name} carries no Egress Desk mark: it was not made by Egress Desk`;
  if (want.uid !== undefined && mark.uid !== want.uid) {
    return `VM ${vmid} named ${want.name} belongs to proxy uid ${mark.uid === '' ? '(none)' : mark.uid}, not ${want.uid}`;
  }
  return undefined;
}

/*
 * Who uses a seed: the one reference check, shared by the delete (here in the
 * core) and the orphan-seed cleanup (main/services/cleanup). A seed stays
 * while a VM's CD-ROM-capable slot (`ide*`, `sata*`, `scsi*`; any drive there
 * holding the volume counts, `media=cdrom` or not) names it, on any node. A
 * config that cannot be read counts as "may use it" for the seeds on its own
 * node: better keep a seed than guess.
 */
const DRIVE_SLOT = /^(ide|sata|scsi)\d+$/;

/** The volumes in CD-ROM-capable slots: `{slot: 'ide2', volid: 'proxy-seeds:iso/x-seed.iso'}`. */
export function driveRefs(config: Record<string, string>): { slot: string; volid: string }[] {
  return Object.entries(config)
    .filter(([key]) => DRIVE_SLOT.test(key))
    .map(([slot, value]) => ({ slot, volid: value.split(',')[0] ?? '' }));
}

export type ConfigRead = { vm: ClusterResource; config: Record<string, string> } | { vm: ClusterResource; error: string };

/** Reads the VMs' configs a few at a time; a failed read is kept as its message (a cancel still throws). */
export async function readConfigs(api: PveApi, vms: ClusterResource[], signal?: AbortSignal, parallel = 4): Promise<ConfigRead[]> {
  const out: ConfigRead[] = [];
  let next = 0;
  const worker = async () => {
    while (next < vms.length) {
      const vm = vms[next++]!;
      try {
        out.push({ vm, config: await api.vmConfig(vm.node!, vm.vmid!, { signal }) });
      } catch (e) {
        signal?.throwIfAborted();
        out.push({ vm, error: e instanceof Error ? e.message : String(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, vms.length) }, worker));
  return out;
}

/** The VMs whose config may hold a seed on `nodes`: every QEMU guest there with a VMID, plus any VM carrying one of `names`. */
export function vmsToRead(resources: readonly ClusterResource[], nodes: Set<string>, names: Set<string>): ClusterResource[] {
  return resources.filter(
    (r) =>
      r.type === 'qemu' &&
      r.vmid !== undefined &&
      r.node !== undefined &&
      (nodes.has(r.node) || (r.name !== undefined && names.has(r.name))),
  );
}

/** Why the copy of `volid` on `node` must stay: a VM uses it (`used`), or a VM on that node could not be read (`unreadable`). */
export interface SeedHold {
  kind: 'used' | 'unreadable';
  reason: string;
}

export function seedHold(volid: string, node: string, reads: readonly ConfigRead[]): SeedHold | undefined {
  for (const r of reads) {
    if ('config' in r) {
      const ref = driveRefs(r.config).find((d) => d.volid === volid);
      if (ref) return { kind: 'used', reason: `VM ${r.vm.vmid}${r.vm.name ? ` (${r.vm.name})` : ''} uses it in ${ref.slot}.` };
    } else if (r.vm.node === node) {
      return {
        kind: 'unreadable',
        reason: `The config of VM ${r.vm.vmid} on ${node} could not be read (${r.error}), so it may use this seed.`,
      };
    }
  }
  return undefined;
}

/** Why a seed must stay because of a VM, or undefined when no VM read uses it and every read succeeded. */
export function vmReasonToKeep(volid: string, node: string, reads: readonly ConfigRead[]): string | undefined {
  return seedHold(volid, node, reads)?.reason;
}

/**
 * The check made immediately before a seed delete: reads the listing and the
 * configs now, and answers, for each of `nodes`, why its copy of `volid` must
 * stay. `except` is the VM the caller is destroying: its own drive does not
 * hold its seed.
 */
export async function seedHolds(
  api: PveApi,
  o: { volid: string; name: string; nodes: readonly string[]; except?: number; signal?: AbortSignal },
): Promise<Map<string, SeedHold>> {
  const resources = await api.clusterResources('vm', { signal: o.signal });
  const toRead = vmsToRead(resources, new Set(o.nodes), new Set([o.name])).filter((r) => r.vmid !== o.except);
  const reads = await readConfigs(api, toRead, o.signal);
  const holds = new Map<string, SeedHold>();
  for (const node of o.nodes) {
    const hold = seedHold(o.volid, node, reads);
    if (hold) holds.set(node, hold);
  }
  return holds;
}
