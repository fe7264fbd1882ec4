/**
 * Issue 24: a static address through the seed's NoCloud `network-config`
 * (cloud-init's network config version 2, the netplan-like format:
 * cloudinit/net/network_state.py NetworkStateInterpreter, which 22.4 reads
 * for every renderer: eni, netplan, networkd, sysconfig). Written with the
 * cloud-yaml serialiser (every string double-quoted), never by pasting.
 *
 * The one interface is found by net0's MAC (`match: macaddress`): v2 names
 * an interface it matches by MAC after the guest's own device
 * (handle_ethernets: "interface name looked up by mac"), whatever the image
 * calls it (ens18, eth0, enp0s18); only where no NIC has that MAC does it
 * fall back to the key, `net0` (what `cloud-init devel net-convert` on a
 * machine without that NIC shows). No `set-name`. The default routes go in `routes` with explicit `0.0.0.0/0` and
 * `::/0` (22.4's v2 reader does not know netplan's `to: default`, and
 * `gateway4`/`gateway6` are deprecated in netplan). Without a static IPv4
 * the guest keeps DHCPv4; IPv6 without a static address takes router
 * advertisements (SLAAC), never a DHCPv6 client.
 */
import { cloudYaml } from '../../../shared/domain/cloud-yaml';
import { hasStaticAddress, type ProxyNetwork } from '../../../shared/domain/proxy-network';

/** The interface key in `ethernets` (a label only: the match names the device). */
export const NETWORK_CONFIG_ID = 'net0';

/** The `network-config` text for `network` on the NIC with `mac`, or undefined when the proxy takes DHCP. */
export function networkConfig(network: ProxyNetwork | undefined, mac: string): string | undefined {
  if (!network || !hasStaticAddress(network)) return undefined;
  const addresses = [network.ipv4?.address, network.ipv6?.address].filter((a): a is string => a !== undefined).map((a) => a.trim());
  const routes = [
    ...(network.ipv4?.gateway ? [{ to: '0.0.0.0/0', via: network.ipv4.gateway.trim() }] : []),
    ...(network.ipv6?.gateway ? [{ to: '::/0', via: network.ipv6.gateway.trim() }] : []),
  ];
  const dns = (network.dns ?? []).map((d) => d.trim());
  const nic: Record<string, unknown> = {
    match: { macaddress: mac.toLowerCase() },
    dhcp4: network.ipv4 === undefined,
    // No DHCPv6 client: ifupdown's `inet6 dhcp` waits on networks without one; router advertisements still apply.
    dhcp6: false,
    addresses,
    ...(routes.length ? { routes } : {}),
    ...(dns.length ? { nameservers: { addresses: dns } } : {}),
  };
  return cloudYaml({ version: 2, ethernets: { [NETWORK_CONFIG_ID]: nic } });
}
