/**
 * `GET /nodes/{node}/network` as pve-manager answers it (PVE/API2/Network.pm
 * index, 14a22df3 lines 408-489): the interfaces of the node's
 * /etc/network/interfaces but the loopback, filtered by `type`, where
 * `any_bridge` and `any_local_bridge` take Linux bridges and OVS bridges
 * (lines 441-449), and `any_bridge`, `vnet` and `include_sdn` add the SDN
 * vnets local to the node (lines 430-432, 451-453; pve-network
 * src/PVE/Network/SDN.pm get_local_vnets, ecf98c5: `type: vnet`, `active`,
 * `vlanaware`, the alias as `comments`, each only to a token with SDN.Audit or
 * SDN.Use on /sdn/zones/<zone>/<vnet>). Since 8.0 a bridge is listed only to
 * a token with SDN.Audit or SDN.Use on /sdn/zones/localnetwork/<bridge>
 * (lines 470-482, check_sdn_bridge; versions.ts bridgeAcl). Never an error:
 * the endpoint's permission is `user => 'all'`, what a token may not see is
 * left out.
 */
import type { SimContext } from '../context';
import type { BridgeDefinition } from '../types';

const SDN_SEE = ['SDN.Audit', 'SDN.Use'] as const;

function bridgeEntry(b: BridgeDefinition, i: number): Record<string, unknown> {
  const port = `eno${i + 1}`;
  return {
    iface: b.iface,
    type: b.ovs ? 'OVSBridge' : 'bridge',
    active: 1,
    autostart: 1,
    ...(b.ovs ? { ovs_ports: port } : { bridge_ports: port, bridge_stp: 'off', bridge_fd: '0' }),
    ...(b.vlanAware && !b.ovs ? { bridge_vlan_aware: 1, bridge_vids: '2-4094' } : {}),
    ...(b.cidr ? { cidr: b.cidr, address: b.cidr.split('/')[0], netmask: b.cidr.split('/')[1], method: 'static' } : { method: 'manual' }),
    ...(b.comments ? { comments: `${b.comments}\n` } : {}),
    families: ['inet'],
    priority: i + 3,
  };
}

export function networkListing(sim: SimContext, nodeName: string, type: string | undefined, tokenId: string): Record<string, unknown>[] {
  const n = sim.state.node(nodeName)!;
  const sees = (path: string) => SDN_SEE.some((p) => sim.tokens.holds(tokenId, path, p));
  const eths = n.bridges.map((_, i) => ({
    iface: `eno${i + 1}`,
    type: 'eth',
    active: 1,
    method: 'manual',
    families: ['inet'],
    priority: i + 1,
  }));
  const all = [...eths, ...n.bridges.map(bridgeEntry)];
  const vnets = n.vnets
    .filter((v) => sees(`/sdn/zones/${v.zone}/${v.vnet}`))
    .map((v) => ({
      iface: v.vnet,
      type: 'vnet',
      active: '1',
      ipam: 0,
      vlanaware: v.vlanAware ? 1 : 0,
      ...(v.alias ? { comments: v.alias } : {}),
    }));
  let listed = all;
  if (type && type !== 'include_sdn') {
    const bridgeType = (t: unknown) => t === 'bridge' || t === 'OVSBridge';
    listed = all.filter((e) => e.type === type || (bridgeType(e.type) && (type === 'any_bridge' || type === 'any_local_bridge')));
  }
  const withVnets = type === 'any_bridge' || type === 'vnet' || type === 'include_sdn' ? [...listed, ...vnets] : listed;
  // "always check bridge access" (line 470): from 8.0 a bridge the token may not see is dropped, whatever the filter.
  return withVnets.filter(
    (e) => !sim.version.bridgeAcl || !(e.type === 'bridge' || e.type === 'OVSBridge') || sees(`/sdn/zones/localnetwork/${String(e.iface)}`),
  );
}
