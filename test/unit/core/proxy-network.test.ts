/** Issue 24: a proxy's network, refused in words field by field before any request (shared/domain/proxy-network.ts). */
import { describe, expect, it } from 'vitest';
import { contains, notAHost, parseAddress, parsePrefix } from '../../../shared/domain/ip-prefix';
import { networkProblems, networkSummary } from '../../../shared/domain/proxy-network';

const fields = (n: Parameters<typeof networkProblems>[0], bridges?: string[]) => networkProblems(n, bridges, 'pv1-1').map((p) => p.field);

describe('addresses and prefixes', () => {
  it('reads IPv4 and IPv6 (compressed, embedded IPv4) as numbers', () => {
    expect(parseAddress('192.168.1.2')?.value).toBe(0xc0a80102n);
    expect(parseAddress('::1')?.value).toBe(1n);
    expect(parseAddress('2001:db8::1')?.value).toBe(0x20010db8000000000000000000000001n);
    expect(parseAddress('::ffff:192.0.2.1')?.value).toBe(0xffffc0000201n);
    expect(parseAddress('fe80::1%eth0')).toBeUndefined();
    expect(parseAddress('300.1.1.1')).toBeUndefined();
    expect(parsePrefix('10.0.0.1/33')).toBeUndefined();
    expect(parsePrefix('2001:db8::/129')).toBeUndefined();
  });

  it('knows what lies inside a prefix, and which ends are no host', () => {
    const p = parsePrefix('192.168.10.20/24')!;
    expect(contains(p, parseAddress('192.168.10.1')!)).toBe(true);
    expect(contains(p, parseAddress('192.168.11.1')!)).toBe(false);
    expect(contains(parsePrefix('2001:db8:0:1::5/64')!, parseAddress('2001:db8:0:1::1')!)).toBe(true);
    expect(contains(parsePrefix('2001:db8:0:1::5/64')!, parseAddress('2001:db8:0:2::1')!)).toBe(false);
    expect(notAHost(parsePrefix('192.168.10.0/24')!)).toMatch(/network address/);
    expect(notAHost(parsePrefix('192.168.10.255/24')!)).toMatch(/broadcast/);
    expect(notAHost(parsePrefix('10.0.0.1/31')!)).toBeUndefined();
  });
});

describe('networkProblems', () => {
  it('takes a good static network with no words', () => {
    expect(
      networkProblems(
        {
          bridge: 'vmbr1',
          vlanTag: 20,
          ipv4: { address: '192.168.20.5/24', gateway: '192.168.20.1' },
          ipv6: { address: '2001:db8:20::5/64', gateway: '2001:db8:20::1' },
          dns: ['192.168.20.1', '2001:db8:20::1'],
        },
        ['vmbr0', 'vmbr1'],
      ),
    ).toEqual([]);
  });

  it('refuses a VLAN outside 1–4094, saying the range', () => {
    for (const tag of [0, 4095, -3, 1.5]) {
      const [p] = networkProblems({ vlanTag: tag });
      expect(p?.field).toBe('vlanTag');
      expect(p?.message).toContain('1–4094');
    }
    expect(networkProblems({ vlanTag: null })).toEqual([]);
  });

  it('refuses a bridge the node lacks, naming the node and the bridges it has', () => {
    const [p] = networkProblems({ bridge: 'vmbr9' }, ['vmbr0', 'vmbr1'], 'pv1-1');
    expect(p).toEqual({ field: 'bridge', message: expect.stringContaining('pv1-1 has no bridge vmbr9') });
    expect(p!.message).toContain('vmbr0, vmbr1');
    expect(fields({ bridge: 'vmbr0,tag=5' })).toEqual(['bridge']);
  });

  it('refuses a static address outside its prefix, and a gateway outside the subnet', () => {
    expect(fields({ ipv4: { address: '192.168.20.0/24' } })).toEqual(['ipv4.address']);
    expect(fields({ ipv4: { address: '192.168.20.255/24' } })).toEqual(['ipv4.address']);
    expect(fields({ ipv4: { address: '192.168.20.5/40' } })).toEqual(['ipv4.address']);
    expect(fields({ ipv4: { address: '192.168.20.5' } })).toEqual(['ipv4.address']);
    expect(fields({ ipv4: { address: '2001:db8::5/64' } })).toEqual(['ipv4.address']);
    const [gw] = networkProblems({ ipv4: { address: '192.168.20.5/24', gateway: '192.168.21.1' } });
    expect(gw).toEqual({ field: 'ipv4.gateway', message: expect.stringContaining('outside the subnet of 192.168.20.5/24') });
    expect(fields({ ipv6: { address: '2001:db8:20::5/64', gateway: '2001:db8:21::1' } })).toEqual(['ipv6.gateway']);
    expect(fields({ ipv6: { address: '2001:db8:20::5/64', gateway: '10.0.0.1' } })).toEqual(['ipv6.gateway']);
    expect(fields({ ipv4: { address: '192.168.20.5/24', gateway: '192.168.20.5' } })).toEqual(['ipv4.gateway']);
  });

  it('refuses name servers that are no address, too many, or without a static address', () => {
    expect(fields({ ipv4: { address: '10.0.0.5/24' }, dns: ['dns.example'] })).toEqual(['dns']);
    expect(fields({ ipv4: { address: '10.0.0.5/24' }, dns: ['1.1.1.1', '8.8.8.8', '9.9.9.9', '1.0.0.1'] })).toEqual(['dns']);
    expect(fields({ dns: ['1.1.1.1'] })).toEqual(['dns']);
  });

  it('sums a network up in one line', () => {
    expect(networkSummary({ bridge: 'vmbr1', vlanTag: 20, ipv4: { address: '10.0.0.5/24' } })).toBe('vmbr1, VLAN 20, 10.0.0.5/24');
    expect(networkSummary({})).toBeUndefined();
  });
});

describe('the expected exit (issue 24)', () => {
  it('takes an address, a CIDR or a set, and says what is not one', async () => {
    const { exitWithin, parseExpectedExit } = await import('../../../shared/domain/expected-exit');
    expect(parseExpectedExit('203.0.113.7')).toEqual({ ok: true, entries: ['203.0.113.7'] });
    expect(parseExpectedExit('203.0.113.0/28, 2001:db8::/48')).toEqual({ ok: true, entries: ['203.0.113.0/28', '2001:db8::/48'] });
    const bad = parseExpectedExit('203.0.113.7, vpn.example, 10.0.0.0/33');
    expect(bad).toEqual({
      ok: false,
      problem: expect.stringContaining('"vpn.example", "10.0.0.0/33" are not an IPv4 or IPv6 address or CIDR'),
    });
    expect(parseExpectedExit('  ')).toMatchObject({ ok: false });
    expect(exitWithin(['203.0.113.0/28'], '203.0.113.9')).toBe(true);
    expect(exitWithin(['203.0.113.0/28'], '203.0.113.17')).toBe(false);
    expect(exitWithin(['203.0.113.7', '2001:db8::/48'], '2001:db8:0:5::1')).toBe(true);
    expect(exitWithin(['203.0.113.7'], 'not an address')).toBe(false);
  });
});
