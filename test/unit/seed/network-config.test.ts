/**
 * Issue 24: a static address through the seed's NoCloud `network-config`, as Debian's real cloud-init reads it: the
 * app's own seed builder writes the ISO, xorriso extracts it, cloud-init's DataSourceNoCloud reads it
 * (nocloud-read.py), and `cloud-init devel net-convert` renders it for ifupdown (eni), systemd-networkd and netplan,
 * so a typo in the format fails here, not on a guest that boots without its address.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkConfig } from '../../../main/core/seed/network-config';
import { buildSeedIso } from '../../../main/core/seed/nocloud';
import { proxyMac } from '../../../main/core/provider/rules/net0';
import type { ProxyNetwork } from '../../../shared/domain/proxy-network';
import { missing, scratchDir, writeImage, xorrisoExtract } from './debian-tools';

const PYTHON = '/usr/bin/python3';
const DRIVER = join(import.meta.dirname, 'nocloud-read.py');
const absent = missing('cloud-init') ?? missing('xorriso');
const mac = proxyMac('4d5e6f70-0000-4000-8000-000000000024');

const dual: ProxyNetwork = {
  ipv4: { address: '192.168.20.5/24', gateway: '192.168.20.1' },
  ipv6: { address: '2001:db8:20::5/64', gateway: '2001:db8:20::1' },
  dns: ['192.168.20.1', '2001:db8:20::1'],
};
const v6only: ProxyNetwork = { ipv6: { address: '2001:db8:30::7/64', gateway: 'fe80::1' } };

let scratch: ReturnType<typeof scratchDir> | undefined;
afterAll(() => scratch?.remove());

const files = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out[join(d, e.name).slice(dir.length)] = readFileSync(join(d, e.name), 'utf8');
    }
  };
  walk(dir);
  return out;
};

function convert(text: string, kind: 'eni' | 'networkd' | 'netplan'): Record<string, string> {
  const dir = join(scratch!.path, `${kind}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  const input = join(dir, 'network-config');
  writeFileSync(input, text);
  const out = join(dir, 'out');
  execFileSync('/usr/bin/cloud-init', ['devel', 'net-convert', '-p', input, '-k', 'yaml', '-D', 'debian', '-O', kind, '-d', out], {
    stdio: 'pipe',
  });
  return files(out);
}

describe('the network-config text', () => {
  it('is none for DHCP, and names the NIC by its MAC with every value double-quoted', () => {
    expect(networkConfig(undefined, mac)).toBeUndefined();
    expect(networkConfig({ bridge: 'vmbr1', vlanTag: 20 }, mac)).toBeUndefined();
    const text = networkConfig(dual, mac)!;
    expect(text).toMatch(/^version: 2\n/);
    // Quoted: a plain MAC of digits only (00:11:22:33:44:55) is a base-60 number to a YAML 1.1 reader.
    expect(text).toContain(`macaddress: "${mac.toLowerCase()}"`);
    expect(text).toContain('via: "192.168.20.1"');
  });

  it('gives a proxy the same MAC for the same UID, in Proxmox’s own prefix', () => {
    expect(mac).toMatch(/^BC:24:11(:[0-9A-F]{2}){3}$/);
    expect(proxyMac('4d5e6f70-0000-4000-8000-000000000024')).toBe(mac);
    expect(proxyMac('another')).not.toBe(mac);
  });
});

describe.skipIf(absent !== undefined)("the seed's network-config as Debian's cloud-init reads it", () => {
  let reads: { networkConfig: unknown; error?: string }[] = [];
  let version = '';
  beforeAll(() => {
    scratch = scratchDir();
    const folders = [dual, undefined].map((network, i) => {
      const image = buildSeedIso({
        name: `proxy-net-${i}`,
        userData: '#cloud-config\n',
        installGuestAgent: false,
        now: new Date('2026-12-02T06:00:00Z'),
        ...(network ? { networkConfig: networkConfig(network, mac)! } : {}),
      });
      const dir = join(scratch!.path, `seed-${i}`);
      mkdirSync(dir);
      expect(xorrisoExtract(writeImage(scratch!.path, `seed-${i}.iso`, image), dir).complaints).toEqual([]);
      return join(dir, 'extracted');
    });
    const out = JSON.parse(execFileSync(PYTHON, [DRIVER], { input: JSON.stringify(folders), encoding: 'utf8' })) as {
      version: string;
      seeds: { networkConfig: unknown; error?: string }[];
    };
    version = out.version;
    reads = out.seeds;
    console.log(`cloud-init ${version} (DataSourceNoCloud, net-convert) read the network-config`);
  }, 60_000);

  it('reads the static network from the seed, and none from a DHCP seed', () => {
    expect(reads[0]!.error).toBeUndefined();
    expect(reads[0]!.networkConfig).toEqual({
      version: 2,
      ethernets: {
        net0: {
          match: { macaddress: mac.toLowerCase() },
          dhcp4: false,
          dhcp6: false,
          addresses: ['192.168.20.5/24', '2001:db8:20::5/64'],
          routes: [
            { to: '0.0.0.0/0', via: '192.168.20.1' },
            { to: '::/0', via: '2001:db8:20::1' },
          ],
          nameservers: { addresses: ['192.168.20.1', '2001:db8:20::1'] },
        },
      },
    });
    expect(reads[1]!.networkConfig).toBeNull();
  });

  it('renders the address, gateway and name servers for ifupdown, systemd-networkd and netplan', () => {
    const text = networkConfig(dual, mac)!;
    const eni = Object.values(convert(text, 'eni')).join('\n');
    expect(eni).toContain('address 192.168.20.5/24');
    expect(eni).toContain('address 2001:db8:20::5/64');
    expect(eni).toContain('route add default gw 192.168.20.1');
    expect(eni).toContain('dns-nameservers 192.168.20.1 2001:db8:20::1');
    expect(eni).not.toMatch(/inet6? dhcp/);
    const networkd = Object.values(convert(text, 'networkd')).join('\n');
    expect(networkd).toContain(`MACAddress=${mac.toLowerCase()}`);
    expect(networkd).toContain('Address=192.168.20.5/24');
    expect(networkd).toContain('Gateway=2001:db8:20::1');
    const netplan = Object.values(convert(text, 'netplan')).join('\n');
    expect(netplan).toContain('via: 192.168.20.1');
  });

  it('keeps DHCPv4 for an IPv6-only static address', () => {
    const eni = Object.values(convert(networkConfig(v6only, mac)!, 'eni')).join('\n');
    expect(eni).toContain('iface net0 inet dhcp');
    expect(eni).toContain('address 2001:db8:30::7/64');
  });
});
