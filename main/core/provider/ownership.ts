/**
 * Finding the VM a create should use (spec entry 2): by name first, then by
 * probing the deterministic VMIDs. Every taken VMID that is nameless (a
 * clone in progress, F8) or carries our name goes through the ownership
 * check, which waits for its lock; a VM listed under another name is probed
 * past at once, whatever its lock (review finding P2).
 */
import { isConfigAlreadyExists } from '../pve/errors';
import type { ClusterResource, CoreContext, VmConfig } from './context';
import { permanent, transient } from './errors';
import { parseMark } from './mark';
import type { CreateRequest } from './placement';
import { isTemplate } from './resources';
import { LOCK_SUSPENDED, waitUnlocked } from './tasks';
import { vmidFor } from './vmid';

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
