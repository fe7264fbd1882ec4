/**
 * A guest's address, from its agent's network-get-interfaces (issue 24 §2):
 * the one on the NIC whose MAC is net0's, the NIC the proxy's bridge and VLAN
 * are set on. qemu-ga lists every interface the guest has, in the kernel's
 * order (qga/commands-posix.c, qmp_guest_network_get_interfaces, over
 * getifaddrs), each with its `hardware-address` and `ip-addresses` (F21's
 * captures); so a guest with a second NIC (net1), Docker (docker0, a veth per
 * container, a br-<id> per user network) or a VPN lists more than one, and
 * the first with an address is not always net0's: docker0 has its
 * 172.17.0.1 while net0's NIC still waits for DHCP.
 *
 * The rule: among the NICs with net0's MAC (all of them when the MAC is not
 * known, or when no NIC reports one that matches, as an agent that reports no
 * MAC would), skipping loopback and Docker's by name, the first IPv4 that is
 * not loopback, link-local (169.254/16) or unspecified; else the first
 * global IPv6 (2000::/3); else the first other IPv6 that is not loopback,
 * link-local (fe80::/10), multicast or unspecified (a unique-local fd…).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { AgentInterface } from '../../pve/schemas';

/** The MAC of a net0 value (`virtio=BC:24:…,bridge=…`, or `model=virtio,macaddr=…`), lower case; undefined when it has none. */
export function net0Mac(net0: string | undefined): string | undefined {
  for (const option of (net0 ?? '').split(',')) {
    const value = option.split('=')[1]?.trim();
    if (value && /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i.test(value)) return value.toLowerCase();
  }
  return undefined;
}

/** Docker's own interfaces: its default bridge, a user network's bridge, a container's end of a veth pair. */
const DOCKER = /^(docker\d*|br-[0-9a-f]{12}|veth\w*)$/;

function candidate(iface: AgentInterface): boolean {
  return iface.name !== 'lo' && !DOCKER.test(iface.name) && iface['hardware-address'] !== '00:00:00:00:00:00';
}

function usableIpv4(text: string): boolean {
  if (!isIPv4(text) || !/^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(text)) return false;
  const [a, b] = text.split('.').map(Number);
  return text !== '0.0.0.0' && a !== 127 && !(a === 169 && b === 254);
}

/** 'global' (2000::/3), 'other' (unique-local and the rest that reaches beyond the link) or undefined (not usable). */
function ipv6Scope(text: string): 'global' | 'other' | undefined {
  const address = text.split('%')[0]!.toLowerCase();
  if (!isIPv6(address) || address === '::' || address === '::1' || address.startsWith('::ffff:')) return undefined;
  const head = parseInt(address.split(':')[0] || '0', 16);
  if ((head & 0xffc0) === 0xfe80 || (head & 0xff00) === 0xff00) return undefined;
  return (head & 0xe000) === 0x2000 ? 'global' : 'other';
}

/** The interfaces the address is looked for on: net0's (by MAC) when one matches, else every candidate. */
function net0Interfaces(interfaces: readonly AgentInterface[], mac: string | undefined): AgentInterface[] {
  const candidates = interfaces.filter(candidate);
  const wanted = mac?.toLowerCase();
  const matching = wanted ? candidates.filter((i) => i['hardware-address']?.toLowerCase() === wanted) : [];
  return matching.length > 0 ? matching : candidates;
}

/** The guest's address on net0's NIC (`mac`: net0's, see `net0Mac`); '' while it has none. */
export function guestAddress(interfaces: readonly AgentInterface[], mac?: string): string {
  const addresses = net0Interfaces(interfaces, mac).flatMap((i) => i['ip-addresses'] ?? []);
  const ipv4 = addresses.find((a) => a['ip-address-type'] === 'ipv4' && usableIpv4(a['ip-address']));
  if (ipv4) return ipv4['ip-address'];
  const ipv6 = addresses.filter((a) => a['ip-address-type'] === 'ipv6');
  const global = ipv6.find((a) => ipv6Scope(a['ip-address']) === 'global') ?? ipv6.find((a) => ipv6Scope(a['ip-address']) === 'other');
  return global ? global['ip-address'].split('%')[0]! : '';
}

/** Whether the agent lists more than one NIC that could hold the address: only then does net0's MAC decide between them. */
export function needsNet0Mac(interfaces: readonly AgentInterface[]): boolean {
  return interfaces.filter(candidate).length > 1;
}
