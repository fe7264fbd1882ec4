/**
 * Issue 24: a node's bridges for the forms, and the same list as the check a
 * create or reconfigure runs before any write (a bridge the node lacks is
 * refused in words). A token that sees none is said in words: since Proxmox
 * VE 8.0 the listing leaves out every bridge the token has neither SDN.Audit
 * nor SDN.Use on (pve-manager PVE/API2/Network.pm, check_sdn_bridge).
 */
import type { NodeBridges } from '../../../shared/channels/network';
import { networkProblems, type ProxyNetwork } from '../../../shared/domain/proxy-network';
import { AppError } from '../../errors/app-error';
import type { Cluster } from '../clusters/cluster';

/** The grant that lets a token see (and use) the node's own bridges. */
export const BRIDGE_GRANT_HINT =
  'Give the token SDN.Use on the bridges: pveum acl modify /sdn/zones/localnetwork --tokens <token id> --roles PVESDNUser (Proxmox VE 8 and later).';

export async function nodeBridges(cluster: Cluster, node: string, signal?: AbortSignal): Promise<NodeBridges> {
  const { profile } = cluster;
  if (!profile.nodes.includes(node))
    throw new AppError('invalid-input', `The node "${node}" is not in this cluster's profile.`, 'Pick a node from the list.', 'node');
  const bridges = await cluster.provider.bridges(node, { signal });
  const notes: string[] = [];
  if (bridges.length === 0) {
    notes.push(
      `Proxmox shows this token no bridge on ${node}: it lists only the bridges a token has SDN.Use or SDN.Audit on. ${BRIDGE_GRANT_HINT}`,
    );
  } else if (profile.bridge && !bridges.some((b) => b.name === profile.bridge)) {
    notes.push(`The profile's bridge ${profile.bridge} is not among the bridges of ${node} this token can see.`);
  }
  return {
    node,
    bridges: bridges.map((b) => ({ ...b })),
    ...(profile.bridge ? { profileBridge: profile.bridge } : {}),
    ...(profile.vlanTag !== undefined ? { profileVlanTag: profile.vlanTag } : {}),
    notes,
  };
}

/**
 * Refuses `network` on `nodes` before any write: its own words first (no read), then, when it names a bridge, the
 * bridge on every node the proxies go to (one listing per node). `done` says what was not done ("Nothing was created.").
 */
export async function refuseBadNetwork(
  cluster: Cluster,
  network: ProxyNetwork | undefined,
  nodes: readonly string[],
  done: string,
  signal?: AbortSignal,
): Promise<void> {
  if (!network) return;
  const refuse = (problem: { field: string; message: string }, hint: string) => {
    throw new AppError('invalid-input', `${problem.message} ${done}`, hint, `network.${problem.field}`);
  };
  const [first] = networkProblems(network);
  if (first) refuse(first, 'Correct the network settings and try again.');
  if (network.bridge === undefined) return;
  for (const node of new Set(nodes)) {
    const listed = await cluster.provider.bridges(node, { signal });
    const [missing] = networkProblems(
      network,
      listed.map((b) => b.name),
      node,
    );
    if (missing) refuse(missing, listed.length === 0 ? BRIDGE_GRANT_HINT : 'Pick a bridge the node has, or let the profile choose.');
  }
}
