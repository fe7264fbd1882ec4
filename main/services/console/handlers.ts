/**
 * The `console.links` channel (issue 16): where a VM's Proxmox console page
 * is, read now through the cluster's provider (core/provider/operations/console.ts).
 * Reads only; the page itself runs on the user's own Proxmox login.
 */
import type { consoleChannels } from '../../../shared/channels/console';
import { AppError } from '../../errors/app-error';
import type { AreaHandlers } from '../../ipc/router';
import type { ClusterDirectory } from '../clusters/cluster';

export function consoleHandlers(directory: ClusterDirectory): AreaHandlers<typeof consoleChannels> {
  return {
    'console.links': async ({ clusterId, vmid, name }, ctx) => {
      const cluster = directory.get(clusterId);
      if (cluster.secretMissing?.())
        throw new AppError(
          'permanent',
          `Egress Desk does not hold the token secret of "${cluster.name}", so it cannot look up where VM ${vmid} is.`,
          'Enter the secret in Settings, then open the console again.',
        );
      const found = await cluster.provider.console(`vms/${vmid}/${name}`, { signal: ctx.signal });
      return { node: found.node, vmid: found.vmid, links: found.links.map(({ viewer, url, needs }) => ({ viewer, url, needs })) };
    },
  };
}
