/**
 * Issue 24: the bridges a proxy's net0 can join on one node, as Proxmox lists
 * them to this token. One read, `GET /nodes/{node}/network?type=any_bridge`:
 * pve-manager's PVE/API2/Network.pm index (14a22df3, lines 426-452) keeps the
 * Linux bridges and OVS bridges of the node's /etc/network/interfaces and adds
 * the SDN vnets local to the node (pve-network src/PVE/Network/SDN.pm
 * get_local_vnets, ecf98c5: a vnet of a zone restricted to other nodes is left
 * out), so the vnets need no second read of /cluster/sdn/vnets. Both lists are
 * filtered by the token's rights (Network.pm lines 470-482: a bridge needs
 * SDN.Audit or SDN.Use on /sdn/zones/localnetwork/<bridge>, a vnet on
 * /sdn/zones/<zone>/<vnet>, since Proxmox VE 8.0); an empty list is said in
 * words by the caller, not taken for a node without bridges.
 */
import type { CoreContext } from '../calls/context';
import { permanent } from '../rules/errors';
import { BRIDGE_NAME } from '../rules/net0';

export type BridgeKind = 'bridge' | 'ovs-bridge' | 'vnet';

export interface NodeBridge {
  name: string;
  kind: BridgeKind;
  /** A VLAN-aware Linux bridge, an OVS bridge (always), or a VLAN-aware vnet: a tag on net0 takes effect. */
  vlanAware: boolean;
  active: boolean;
  /** The admin's comment (a vnet's alias). */
  comment?: string;
}

const KINDS: Record<string, BridgeKind> = { bridge: 'bridge', OVSBridge: 'ovs-bridge', vnet: 'vnet' };

export async function nodeBridges(ctx: CoreContext, node: string, signal?: AbortSignal): Promise<NodeBridge[]> {
  if (!ctx.profile.nodes.includes(node)) throw permanent(`the node "${node}" is not in the profile's nodes`);
  const listed = await ctx.api.network(node, 'any_bridge', { signal });
  const out: NodeBridge[] = [];
  for (const entry of listed) {
    const kind = KINDS[entry.type];
    // A name net0 could not hold (BRIDGE_NAME) is not offered: rewriteNet0 would refuse it.
    if (!kind || !BRIDGE_NAME.test(entry.iface)) continue;
    const vlanAware = kind === 'ovs-bridge' || Boolean(kind === 'vnet' ? entry.vlanaware : entry.bridge_vlan_aware);
    out.push({
      name: entry.iface,
      kind,
      vlanAware,
      active: entry.active !== false,
      ...(entry.comments ? { comment: entry.comments.trim() } : {}),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}
