/** The placement channel: where a create of an image can land, read now (service.ts). */
import type { ClusterDirectory } from '../clusters/cluster';
import { landingsOf, toNodeLanding } from './service';

export function placementHandlers(directory: ClusterDirectory) {
  return {
    'placement.landing': async ({ clusterId, template }: { clusterId: string; template: string }) => {
      const cluster = directory.get(clusterId);
      return { nodes: (await landingsOf(cluster, template)).map(toNodeLanding) };
    },
  };
}
