/**
 * Issue 24 §2, "Addresses": the address is the one on the guest's NIC whose
 * MAC is net0's, skipping loopback, docker (docker0, veth*, br-*) and
 * link-local; an IPv6-only guest has its global IPv6.
 */
import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../../fixtures';
import { guestAddress, net0Mac, needsNet0Mac } from '../../../main/core/provider/rules/guest-address';
import type { AgentInterface } from '../../../main/core/pve/schemas';

const agent = (name: string) => fixtureJson<{ data: { result: AgentInterface[] } }>(name)!.data.result;
const ip = (address: string, type = address.includes(':') ? 'ipv6' : 'ipv4', prefix = 24) => ({
  'ip-address': address,
  'ip-address-type': type,
  prefix,
});
const nic = (name: string, mac: string, ...addresses: string[]): AgentInterface => ({
  name,
  'hardware-address': mac,
  'ip-addresses': addresses.map((a) => ip(a)),
});
const lo = nic('lo', '00:00:00:00:00:00', '127.0.0.1', '::1');
const NET0 = 'bc:24:11:48:11:46';

describe('net0Mac', () => {
  it.each([
    ['virtio=BC:24:11:48:11:46,bridge=vmbr0', NET0],
    ['model=virtio,macaddr=BC:24:11:48:11:46,bridge=vmbr0,tag=4', NET0],
    ['e1000=bc:24:11:48:11:46,bridge=vmbr1,firewall=1', NET0],
    ['virtio,bridge=vmbr0', undefined],
    [undefined, undefined],
  ])('%s: %s', (net0, mac) => {
    expect(net0Mac(net0)).toBe(mac);
  });
});

describe('guestAddress', () => {
  it('reads the captured agent answers (untagged and VLAN 4), with and without the MAC', () => {
    expect(guestAddress(agent('agent_network_get_interfaces'), 'BC:24:11:48:11:46')).toBe('192.168.0.150');
    expect(guestAddress(agent('agent_network_get_interfaces'))).toBe('192.168.0.150');
    expect(guestAddress(agent('agent_network_get_interfaces_vlan'), 'bc:24:11:a9:b4:eb')).toBe('192.168.4.147');
  });

  it.each([
    [
      "the NIC with net0's MAC, not the first one listed",
      [lo, nic('ens19', 'bc:24:11:00:00:02', '10.20.0.5'), nic('ens18', NET0, '192.168.0.150')],
      NET0,
      '192.168.0.150',
    ],
    [
      "net0's NIC without an address yet: none, not docker0's",
      [lo, nic('ens18', NET0, 'fe80::be24:11ff:fe48:1146'), nic('docker0', '02:42:ac:11:00:01', '172.17.0.1')],
      NET0,
      '',
    ],
    [
      'no MAC known: docker0, veth* and br-* are skipped',
      [
        lo,
        nic('docker0', '02:42:ac:11:00:01', '172.17.0.1'),
        nic('br-3f2a9c1d7e4b', '02:42:0a:00:00:01', '172.18.0.1'),
        nic('veth1a2b3c', '9a:1b:2c:3d:4e:5f', '169.254.9.9'),
        nic('ens18', NET0, '192.168.0.150'),
      ],
      undefined,
      '192.168.0.150',
    ],
    [
      'an IPv6-only guest: its global IPv6, not the link-local one',
      [lo, nic('ens18', NET0, 'fe80::be24:11ff:fe48:1146', '2001:db8:10::150')],
      NET0,
      '2001:db8:10::150',
    ],
    ['IPv4 first when the NIC has both', [lo, nic('ens18', NET0, '2001:db8:10::150', '192.168.0.150')], NET0, '192.168.0.150'],
    ['a global IPv6 before a unique-local one', [lo, nic('ens18', NET0, 'fd00:1::5', '2001:db8:10::150')], NET0, '2001:db8:10::150'],
    ['a unique-local IPv6 when it is all there is', [lo, nic('ens18', NET0, 'fe80::1', 'fd00:1::5')], NET0, 'fd00:1::5'],
    [
      'an agent that reports no MAC: the first usable NIC, as before',
      [lo, { name: 'eth0', 'ip-addresses': [ip('10.1.2.3')] }],
      NET0,
      '10.1.2.3',
    ],
    [
      'loopback, link-local, unspecified, multicast: nothing usable',
      [lo, nic('ens18', NET0, '169.254.1.1', '::', 'ff02::1', '0.0.0.0')],
      NET0,
      '',
    ],
  ] as const)('%s', (_n, ifaces, mac, want) => {
    expect(guestAddress(ifaces as readonly AgentInterface[], mac)).toBe(want);
  });
});

describe('needsNet0Mac', () => {
  it('only a guest with more than one NIC that could hold the address needs net0 read', () => {
    expect(needsNet0Mac(agent('agent_network_get_interfaces'))).toBe(false);
    expect(needsNet0Mac([lo, nic('ens18', NET0), nic('docker0', '02:42:ac:11:00:01', '172.17.0.1')])).toBe(false);
    expect(needsNet0Mac([lo, nic('ens18', NET0), nic('ens19', 'bc:24:11:00:00:02', '10.20.0.5')])).toBe(true);
  });
});
