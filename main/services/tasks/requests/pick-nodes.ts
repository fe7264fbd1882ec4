/**
 * Automatic placement: each new proxy goes to a node of the profile a
 * create of the image can land on (issue 11: main/core/provider/cluster/landing.ts;
 * a node that is down, or that a clone of the template cannot reach, is
 * never chosen), the one with the fewest proxies; among equals, one where
 * the clone lands directly (no move after it), then one other than the node
 * the profile's URL reaches, then the most free memory. Counts the proxies
 * this same request already placed. One listing for the whole request, plus
 * one config read per template of the image, plus the cluster status once
 * per client (client.ts apiNode()).
 *
 * Why the URL's node goes last among equals: its pveproxy also answers every
 * call that names no node (the cluster listings and VMID lookups of every
 * create, wherever it lands), so under the per-node pace (pace.ts) its
 * creates wait longest for their turn. A bulk of 20 over 3 nodes goes 7/7/6
 * with 6 there; the most on one node, which sets the bulk's physical floor
 * (its disk copies them all), is 7 either way.
 */
import type { Cluster } from '../../clusters/cluster';
import { AppError } from '../../../errors/app-error';
import { landingsOf } from '../../placement/service';
import { clusterListing } from '../../../core';

interface NodeLoad {
  node: string;
  proxies: number;
  freeMem: number;
  /** 1 when a create there clones on another node and then moves the VM. */
  moves: number;
  /** 1 on the node the profile's URL reaches (see above). */
  answersUrl: number;
}

export async function pickNodes(cluster: Cluster, count: number, image: string, signal?: AbortSignal): Promise<string[]> {
  const [resources, landings, apiNode] = await Promise.all([
    clusterListing(cluster.api, { signal }),
    landingsOf(cluster, image, signal),
    // Only an order among equals: a status the token may not read leaves it out.
    cluster.api.apiNode?.({ signal }).catch(() => undefined),
  ]);
  const loads: NodeLoad[] = landings.flatMap((landing) => {
    if (!landing.ok) return [];
    const { node } = landing;
    const entry = resources.find((r) => r.type === 'node' && r.node === node);
    if (!entry || entry.status !== 'online') return [];
    const proxies = resources.filter((r) => r.type === 'qemu' && r.node === node && r.name?.startsWith('proxy-')).length;
    return [
      {
        node,
        proxies,
        freeMem: (entry.maxmem ?? 0) - (entry.mem ?? 0),
        moves: landing.way === 'migrate' ? 1 : 0,
        answersUrl: node === apiNode ? 1 : 0,
      },
    ];
  });
  if (loads.length === 0) {
    const why = landings.map((l) => `${l.node}: ${l.reason ?? 'not online'}`).join('; ');
    throw new AppError(
      'transient',
      `No node of ${cluster.name} can take a proxy from "${image}" now (${why}).`,
      landings.find((l) => l.hint)?.hint ?? 'Bring a node back online, or pick a node yourself once one answers.',
    );
  }
  const picked: string[] = [];
  for (let i = 0; i < count; i++) {
    loads.sort((a, b) => a.proxies - b.proxies || a.moves - b.moves || a.answersUrl - b.answersUrl || b.freeMem - a.freeMem);
    const best = loads[0]!;
    picked.push(best.node);
    best.proxies++;
  }
  return picked;
}
