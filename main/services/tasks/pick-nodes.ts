/**
 * Automatic placement: each new proxy goes to the online node of the
 * profile with the fewest proxies, then the most free memory, counting the
 * ones this same request already placed. One listing for the whole request.
 */
import type { Cluster } from '../clusters/cluster';
import { AppError } from '../../ipc/app-error';

interface NodeLoad {
  node: string;
  proxies: number;
  freeMem: number;
}

export async function pickNodes(cluster: Cluster, count: number, signal?: AbortSignal): Promise<string[]> {
  const resources = await cluster.api.clusterResources(undefined, { signal });
  const loads: NodeLoad[] = cluster.profile.nodes.flatMap((node) => {
    const entry = resources.find((r) => r.type === 'node' && r.node === node);
    if (!entry || entry.status !== 'online') return [];
    const proxies = resources.filter((r) => r.type === 'qemu' && r.node === node && r.name?.startsWith('proxy-')).length;
    return [{ node, proxies, freeMem: (entry.maxmem ?? 0) - (entry.mem ?? 0) }];
  });
  if (loads.length === 0) {
    throw new AppError(
      'transient',
      `None of the nodes of ${cluster.name} is online, so there is nowhere to place a proxy.`,
      'Bring a node back online, or pick a node yourself once one answers.',
    );
  }
  const picked: string[] = [];
  for (let i = 0; i < count; i++) {
    loads.sort((a, b) => a.proxies - b.proxies || b.freeMem - a.freeMem);
    const best = loads[0]!;
    picked.push(best.node);
    best.proxies++;
  }
  return picked;
}
