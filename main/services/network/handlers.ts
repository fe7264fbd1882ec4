/** The `network.bridges` channel (issue 24): a node's bridges read now through the cluster's provider. */
import type { networkChannels } from '../../../shared/channels/network';
import { AppError } from '../../errors/app-error';
import type { AreaHandlers } from '../../ipc/router';
import type { ClusterDirectory } from '../clusters/cluster';
import { nodeBridges } from './bridges';

export function networkHandlers(directory: ClusterDirectory): AreaHandlers<typeof networkChannels> {
  return {
    'network.bridges': async ({ clusterId, node }, ctx) => {
      const cluster = directory.get(clusterId);
      if (cluster.secretMissing?.())
        throw new AppError(
          'permanent',
          `Egress Desk does not hold the token secret of "${cluster.name}", so it cannot read the bridges of ${node}.`,
          'Enter the secret in Settings, then open the form again.',
        );
      return nodeBridges(cluster, node, ctx.signal);
    },
  };
}
