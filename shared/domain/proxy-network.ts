/**
 * Where a proxy sits on the network (issue 24, "Network per proxy"): the
 * bridge and VLAN tag its net0 gets, overriding the profile's default, and a
 * static IPv4/IPv6 address, gateway and DNS written into its seed's NoCloud
 * `network-config` instead of DHCP. One rule both sides use: the Create and
 * Reconfigure forms show its words beside the field, and main refuses the
 * same request with the same words before any request reaches Proxmox.
 */
import { z } from 'zod';
import { BRIDGE_NAME } from './profile';
import { contains, notAHost, parseAddress, parsePrefix, type IpFamily } from './ip-prefix';

export const MIN_VLAN = 1;
export const MAX_VLAN = 4094;
export const MAX_DNS_SERVERS = 3;

const text = (max: number) => z.string().max(max);

export const StaticAddress = z
  .object({
    /** `address/prefix`, e.g. `192.168.10.20/24` or `2001:db8::20/64`. */
    address: text(64),
    gateway: text(64).optional(),
  })
  .strict();
export type StaticAddress = z.infer<typeof StaticAddress>;

/** The wire shape; the words of what is wrong in it come from networkProblems. */
export const ProxyNetwork = z
  .object({
    /** A bridge (or OVS bridge, or SDN vnet) of the proxy's node; absent: the profile's, else the template's. */
    bridge: text(64).optional(),
    /** A VLAN tag on net0; `null`: no tag (the profile's is taken off); absent: the profile's, else the template's. */
    vlanTag: z.number().int().nullable().optional(),
    /** A static IPv4 address instead of DHCP. */
    ipv4: StaticAddress.optional(),
    /** A static IPv6 address instead of router advertisements and DHCPv6. */
    ipv6: StaticAddress.optional(),
    /** Name servers, used with a static address. */
    dns: z.array(text(64)).max(8).optional(),
  })
  .strict();
export type ProxyNetwork = z.infer<typeof ProxyNetwork>;

export type NetworkField = 'bridge' | 'vlanTag' | 'ipv4.address' | 'ipv4.gateway' | 'ipv6.address' | 'ipv6.gateway' | 'dns';

export interface NetworkProblem {
  field: NetworkField;
  message: string;
}

const familyName = (family: IpFamily) => (family === 4 ? 'IPv4' : 'IPv6');
const example = (family: IpFamily) => (family === 4 ? '192.168.10.20/24' : '2001:db8::20/64');

function staticProblems(family: IpFamily, value: StaticAddress | undefined): NetworkProblem[] {
  if (!value) return [];
  const name = familyName(family);
  const field = (f: 'address' | 'gateway') => `ipv${family}.${f}` as NetworkField;
  const prefix = parsePrefix(value.address.trim());
  if (!prefix || prefix.family !== family) {
    return [
      {
        field: field('address'),
        message: `The ${name} address "${value.address}" is not an ${name} address with its prefix length, like ${example(family)}.`,
      },
    ];
  }
  const out: NetworkProblem[] = [];
  const notHost = notAHost(prefix);
  if (prefix.length === 0 || notHost) {
    out.push({
      field: field('address'),
      message: `The ${name} address ${value.address} ${notHost ?? 'has a prefix length of 0'}, so no host can have it: give a host address inside the prefix, like ${example(family)}.`,
    });
  }
  const gatewayText = value.gateway?.trim() ?? '';
  if (gatewayText !== '') {
    const gateway = parseAddress(gatewayText);
    if (!gateway || gateway.family !== family) {
      out.push({ field: field('gateway'), message: `The ${name} gateway "${gatewayText}" is not an ${name} address.` });
    } else if (gateway.value === prefix.value) {
      out.push({
        field: field('gateway'),
        message: `The ${name} gateway ${gatewayText} is the proxy's own address: give the router's address.`,
      });
    } else if (!contains(prefix, gateway)) {
      out.push({
        field: field('gateway'),
        message: `The ${name} gateway ${gatewayText} is outside the subnet of ${value.address}: the proxy could not reach it. Give a gateway inside that subnet, or correct the prefix length.`,
      });
    }
  }
  return out;
}

/**
 * What is wrong with `network`, in words, field by field; none when it can be sent. `bridges`, when known, are the
 * bridges the proxy's node has (`GET /nodes/{node}/network`): a bridge outside them is refused. `nodeName` names the
 * node in that refusal.
 */
export function networkProblems(network: ProxyNetwork, bridges?: readonly string[], nodeName?: string): NetworkProblem[] {
  const out: NetworkProblem[] = [];
  const bridge = network.bridge;
  if (bridge !== undefined) {
    if (!BRIDGE_NAME.test(bridge)) {
      out.push({
        field: 'bridge',
        message: `The bridge "${bridge}" is not a bridge name: a letter, then up to 14 letters, digits, "_", "." or "-", like vmbr0.`,
      });
    } else if (bridges && !bridges.includes(bridge)) {
      out.push({
        field: 'bridge',
        message: `${nodeName ? `The node ${nodeName}` : 'The node'} has no bridge ${bridge} that this token can see${bridges.length ? ` (it has ${bridges.join(', ')})` : ''}: pick one of its bridges.`,
      });
    }
  }
  const tag = network.vlanTag;
  if (tag !== undefined && tag !== null && (!Number.isInteger(tag) || tag < MIN_VLAN || tag > MAX_VLAN)) {
    out.push({
      field: 'vlanTag',
      message: `The VLAN tag ${tag} is outside 1–4094, the tags a VLAN can have: give a tag from 1 to 4094, or none.`,
    });
  }
  out.push(...staticProblems(4, network.ipv4), ...staticProblems(6, network.ipv6));
  const dns = network.dns ?? [];
  if (dns.length > 0 && !network.ipv4 && !network.ipv6) {
    out.push({
      field: 'dns',
      message:
        'Name servers go with a static address; with DHCP the proxy takes the ones the DHCP server gives. Set a static address, or leave the name servers empty.',
    });
  }
  if (dns.length > MAX_DNS_SERVERS) {
    out.push({
      field: 'dns',
      message: `${dns.length} name servers are more than the ${MAX_DNS_SERVERS} a resolver uses: keep at most ${MAX_DNS_SERVERS}.`,
    });
  }
  const bad = dns.filter((d) => !parseAddress(d.trim()));
  if (bad.length)
    out.push({ field: 'dns', message: `The name server ${bad.map((b) => `"${b}"`).join(', ')} is not an IPv4 or IPv6 address.` });
  return out;
}

/** Whether the proxy gets a static address (and so a `network-config` in its seed). */
export function hasStaticAddress(network: ProxyNetwork | undefined): boolean {
  return Boolean(network?.ipv4 || network?.ipv6);
}

/** One line for a task's target or the drawer: `vmbr1, VLAN 20, 192.168.20.5/24`. */
export function networkSummary(network: ProxyNetwork | undefined): string | undefined {
  if (!network) return undefined;
  const parts = [
    network.bridge,
    network.vlanTag === null ? 'no VLAN' : network.vlanTag !== undefined ? `VLAN ${network.vlanTag}` : undefined,
    network.ipv4?.address,
    network.ipv6?.address,
  ].filter((p): p is string => p !== undefined && p !== '');
  return parts.length ? parts.join(', ') : undefined;
}
