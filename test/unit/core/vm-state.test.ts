import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../../fixtures';
import { firstIpv4, mapState } from '../../../main/core/provider/rules/vm-state';
import type { AgentInterface } from '../../../main/core/pve/schemas';

const agent = (name: string) => fixtureJson<{ data: { result: AgentInterface[] } }>(name)!.data.result;

describe('firstIpv4', () => {
  it('reads the captured agent answers (untagged and VLAN 4)', () => {
    expect(firstIpv4(agent('agent_network_get_interfaces'))).toBe('192.168.0.150');
    expect(firstIpv4(agent('agent_network_get_interfaces_vlan'))).toBe('192.168.4.147');
  });

  const ip = (address: string, type = 'ipv4') => ({ 'ip-address': address, 'ip-address-type': type, prefix: 24 });
  it.each([
    [
      'skips lo, link-local, unspecified and IPv6',
      [
        { name: 'lo', 'ip-addresses': [ip('10.0.0.1')] },
        { name: 'eth0', 'ip-addresses': [ip('fe80::1', 'ipv6'), ip('169.254.3.4'), ip('0.0.0.0'), ip('127.0.0.2'), ip('10.1.2.3')] },
      ],
      '10.1.2.3',
    ],
    [
      'takes the first interface in the agent order',
      [
        { name: 'eth1', 'ip-addresses': [ip('10.9.9.9')] },
        { name: 'eth0', 'ip-addresses': [ip('10.1.1.1')] },
      ],
      '10.9.9.9',
    ],
    ['nothing usable yet', [{ name: 'eth0', 'ip-addresses': [ip('169.254.1.1')] }, { name: 'eth1' }], ''],
  ] as const)('%s', (_n, ifaces, want) => {
    expect(firstIpv4(ifaces as unknown as AgentInterface[])).toBe(want);
  });
});

describe('mapState', () => {
  it.each([
    ['running', 'running', '10.0.0.1', 'running'],
    ['running', 'running', '', 'provisioning'],
    ['running', undefined, '', 'provisioning'],
    ['running', 'prelaunch', '', 'provisioning'],
    ['running', 'paused', '', 'stopped'],
    ['running', 'suspended', '', 'stopped'],
    ['running', 'io-error', '', 'stopped'],
    ['stopped', 'stopped', '', 'stopped'],
    ['weird', undefined, '', 'stopped'],
  ] as const)('%s/%s with ip %j is %s', (status, qmp, ip, want) => {
    expect(mapState(status, qmp, ip)).toBe(want);
  });
});
