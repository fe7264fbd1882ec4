/**
 * The template checks before any clone (spec entry 4). The clone copies the
 * template's config, so what the config or resize step would refuse on the
 * clone is refused here, while no VM exists that fixing the template could
 * no longer help.
 */
import type { ClusterResource, CoreContext } from './context';
import { diskKeyPattern } from './boot-disk';
import { permanent } from './errors';
import type { Placement } from './placement';
import { nodeOf } from './ownership';
import { findVm } from './resources';
import { configParams, resizePlan } from './vm-params';

export async function checkTemplate(
  ctx: CoreContext,
  resources: readonly ClusterResource[],
  image: string,
  placement: Placement,
  signal?: AbortSignal,
): Promise<ClusterResource> {
  const vmid = placement.templateVmid;
  const source = findVm(resources, vmid);
  if (!source) throw permanent(`placement.image "${image}": template VM ${vmid} does not exist`);
  const config = await ctx.api.vmConfig(nodeOf(source), vmid, { signal });
  if (String(config.template) !== '1') throw permanent(`placement.image "${image}": VM ${vmid} is not a template`);
  for (const key of Object.keys(config).sort()) {
    if (diskKeyPattern.test(key) && (config[key] ?? '').includes('cloudinit')) {
      throw permanent(
        `placement.image "${image}": template ${vmid} has a Proxmox cloud-init drive on ${key}`,
        'Remove the cloud-init drive from the template: Egress Desk attaches its own seed.',
      );
    }
  }
  configParams(ctx.profile, vmid, config, placement.machineType, '');
  resizePlan(vmid, config, placement.machineType.diskGiB);
  return source;
}
