/**
 * The lines every action on one existing VM shares when it looks the VM up
 * (power, migrate, reconfigure, console): its config read fresh on its node,
 * a VM gone since the listing answered as not-found, a VM that is not the one
 * meant refused before anything is sent to it, and a lock named with what to
 * wait for. Delete keeps its own words ("deletes"), create never looks up.
 */
import { isConfigMissing } from '../../pve/errors';
import type { CoreContext, VmConfig } from '../calls/context';
import { notFound, ProviderError, transient } from '../rules/errors';
import { notTheOne, type Wanted } from './ownership';

export const ACTION_REFUSED_HINT =
  'Egress Desk acts on a VM only when its VMID, name and mark all match the proxy asked for. Refresh the inventory and pick the proxy again.';

export const goneError = (vmid: number): ProviderError => notFound(`No VM ${vmid} is left: it is gone`);

/** The VM's config, read fresh on its node; a VM deleted since the listing is not-found. */
export async function readConfigOrGone(ctx: CoreContext, node: string, vmid: number, signal?: AbortSignal): Promise<VmConfig> {
  try {
    return await ctx.api.vmConfig(node, vmid, { signal });
  } catch (e) {
    if (isConfigMissing(e)) throw goneError(vmid);
    throw e;
  }
}

/** Refuses (permanent, nothing sent) a VM whose name or mark is not the one the action means. */
export function refuseIfNotTheOne(vmid: number, config: VmConfig, want: Wanted, code: string): void {
  const why = notTheOne(vmid, config, want);
  if (why) throw new ProviderError('permanent', `${why}; nothing was sent to it.`, undefined, undefined, ACTION_REFUSED_HINT, code);
}

export function lockedError(vmid: number, lock: string): ProviderError {
  return transient(
    `VM ${vmid} is locked (${lock}): a task holds it`,
    `Wait for the ${lock} task on VM ${vmid} to end (see its tasks in the Proxmox UI), then try again.`,
  );
}
