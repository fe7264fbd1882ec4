/**
 * Looking a VMID up in `/cluster/resources`, which covers every node: the ID
 * is location-free, so the node is found here on every call.
 */
import type { CallOptions, ClusterResource, CoreContext } from '../calls/context';

/** Only QEMU VMs count: a container at the VMID means ours is gone. */
export function findVm(resources: readonly ClusterResource[], vmid: number): ClusterResource | undefined {
  return resources.find((r) => r.vmid === vmid && r.type === 'qemu');
}

export async function resolveVm(ctx: CoreContext, vmid: number, options: CallOptions): Promise<ClusterResource | undefined> {
  return findVm(await ctx.api.clusterResources('vm', { signal: options.signal }), vmid);
}

export function isTemplate(r: ClusterResource): boolean {
  return r.template === true;
}
