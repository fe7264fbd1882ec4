/**
 * The guest agent's network-get-interfaces with the three failures of F5.
 * The address appears `agentDelayMs` (simulated) after start, as it did
 * about 50 s after start on the real host (F21).
 *
 * The answer has the captured shape (F21: `lo`, then `ens18` with its
 * `hardware-address`, `ip-addresses` with `prefix`, and `statistics`), which
 * is qemu-ga's: every interface the guest has, in the kernel's order
 * (qemu's qga/commands-posix.c, qmp_guest_network_get_interfaces, over
 * getifaddrs). A guest can have more than the captured one: each netN of
 * the config is a NIC named ens(18+N), as qemu-server puts netN at PCI slot
 * 18+N (PVE/QemuServer/PCI.pm, `net0 => { bus => 0, addr => 18 }`) and
 * systemd names a NIC by its slot; Docker adds docker0 (172.17.0.1/16, a
 * 02:42 MAC) and a veth per container (link-local only) after them, already
 * addressed while net0's NIC may still wait for DHCP; an IPv6-only guest's
 * NIC has its link-local and a global address made from its MAC (EUI-64,
 * RFC 4291 §2.5.1) on a router's prefix, and no IPv4. `no-ip` holds back
 * net0's routable addresses only: the other NICs are addressed statically.
 */
import { fixtureJson } from '../../../fixtures';
import type { Route, RouteRequest } from '../context';
import { optionOf } from '../disks';
import { textError } from '../errors';
import type { SimVm } from '../state';
import { requireVm, vmOf, vmPathParams } from './vm-common';

interface AgentAddress {
  'ip-address': string;
  'ip-address-type': string;
  prefix: number;
}
interface AgentInterface {
  name: string;
  'hardware-address'?: string;
  'ip-addresses'?: AgentAddress[];
  statistics?: Record<string, number>;
}

function agentEnabled(vm: SimVm): boolean {
  const value = vm.config.agent;
  if (value === undefined) return false;
  const enabled = optionOf(String(value), 'enabled') ?? String(value).split(',')[0];
  return enabled === '1' || enabled === 'true';
}

const tagOf = (net: string) => optionOf(net, 'tag');

/** The guest's address: the configured one, or one derived from the VMID on the VLAN of net0. */
export function guestIp(vm: SimVm): string {
  if (vm.ip) return vm.ip;
  return `192.168.${tagOf(String(vm.config.net0 ?? '')) ?? 0}.${100 + (vm.vmid % 150)}`;
}

const macOf = (net: string) => /=([0-9A-Fa-f:]{17})/.exec(net)?.[1]?.toLowerCase();

/** The EUI-64 interface identifier of a MAC (the universal/local bit flipped, ff:fe in the middle), as four groups. */
function eui64(mac: string): string {
  const b = mac.split(':').map((h) => parseInt(h, 16));
  b[0]! ^= 0x02;
  const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
  return [hex(b[0]!, b[1]!), hex(b[2]!, 0xff), hex(0xfe, b[3]!), hex(b[4]!, b[5]!)].join(':');
}

/** An IPv6 address as inet_ntop writes it (qemu-ga's text): the longest run of zero groups as `::`. */
const compressed = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1);

const v4 = (address: string, prefix: number): AgentAddress => ({ 'ip-address': address, 'ip-address-type': 'ipv4', prefix });
const v6 = (address: string, prefix = 64): AgentAddress => ({ 'ip-address': address, 'ip-address-type': 'ipv6', prefix });
const stats = (): Record<string, number> => ({
  'rx-bytes': 0,
  'rx-packets': 0,
  'rx-errs': 0,
  'rx-dropped': 0,
  'tx-bytes': 0,
  'tx-packets': 0,
  'tx-errs': 0,
  'tx-dropped': 0,
});

/** net0's NIC: the captured one with this VM's MAC and addresses. */
function net0Interface(vm: SimVm, captured: AgentInterface, withAddress: boolean): AgentInterface {
  const net0 = String(vm.config.net0 ?? '');
  const mac = macOf(net0);
  const ipv6Only = vm.guest?.ipv6Only === true;
  const copy: AgentInterface = {
    ...captured,
    'ip-addresses': (captured['ip-addresses'] ?? [])
      .filter((a) => a['ip-address-type'] !== 'ipv4' || (withAddress && !ipv6Only))
      .map((a) =>
        a['ip-address-type'] === 'ipv4' ? { ...a, 'ip-address': guestIp(vm) } : mac ? { ...a, 'ip-address': `fe80::${eui64(mac)}` } : a,
      ),
  };
  if (mac) copy['hardware-address'] = mac;
  if (ipv6Only && withAddress && mac) copy['ip-addresses']!.push(v6(compressed(`2001:db8:0:${tagOf(net0) ?? 0}:${eui64(mac)}`)));
  return copy;
}

/** The NIC of net1…net5, addressed statically on a network of its own. */
function otherInterface(vm: SimVm, n: number): AgentInterface | undefined {
  const mac = macOf(String(vm.config[`net${n}`] ?? ''));
  if (!mac) return undefined;
  const address = v4(`10.${n}.${tagOf(String(vm.config[`net${n}`])) ?? 0}.${100 + (vm.vmid % 150)}`, 24);
  return { name: `ens${18 + n}`, 'hardware-address': mac, 'ip-addresses': [address, v6(`fe80::${eui64(mac)}`)], statistics: stats() };
}

/** Docker's default bridge and one container's veth: docker's own 02:42 MACs, docker0 addressed from the start. */
function dockerInterfaces(vm: SimVm): AgentInterface[] {
  const low = (vm.vmid % 256).toString(16).padStart(2, '0');
  const bridge = `02:42:ac:11:${low}:01`;
  const veth = `9a:3c:5e:11:${low}:02`;
  return [
    {
      name: 'docker0',
      'hardware-address': bridge,
      'ip-addresses': [v4('172.17.0.1', 16), v6(`fe80::${eui64(bridge)}`)],
      statistics: stats(),
    },
    { name: `veth${low}a1b2c`, 'hardware-address': veth, 'ip-addresses': [v6(`fe80::${eui64(veth)}`)], statistics: stats() },
  ];
}

/** The guest's interfaces in qemu-ga's order: lo, net0's NIC, the other NICs, Docker's. */
function interfaces(vm: SimVm, withAddress: boolean): { result: AgentInterface[] } {
  const tagged = tagOf(String(vm.config.net0 ?? '')) !== undefined;
  const captured = fixtureJson<{ data: { result: AgentInterface[] } }>(
    tagged ? 'agent_network_get_interfaces_vlan' : 'agent_network_get_interfaces',
  )!.data.result;
  const result: AgentInterface[] = [];
  for (const iface of captured) result.push(iface.name === 'lo' ? iface : net0Interface(vm, iface, withAddress));
  for (let n = 1; n <= 5; n++) {
    const other = otherInterface(vm, n);
    if (other) result.push(other);
  }
  if (vm.guest?.docker) result.push(...dockerInterfaces(vm));
  return { result: structuredClone(result) };
}

function networkGetInterfaces(req: RouteRequest): unknown {
  const vm = vmOf(req);
  if (!agentEnabled(vm)) throw textError('agentUnconfigured', 500);
  if (vm.power !== 'running' && vm.power !== 'paused') throw textError('vmNotRunning', 500, { '199999': vm.vmid });
  const upFor = req.sim.clock.now() - (vm.startedAt ?? 0);
  if (vm.power === 'paused' || vm.agent === 'never' || upFor < req.sim.agentDelayMs) throw textError('agentNotRunning', 500);
  // qemu-ga refuses a command blocked in its config; Proxmox passes the error on at 200 (versions.ts: same on every release).
  if (vm.agent === 'command-disabled') return fixtureJson<{ data: unknown }>('agent_command_disabled')!.data;
  return interfaces(vm, vm.agent === 'reports-ip');
}

export const vmAgentRoutes: Route[] = [
  {
    method: 'GET',
    path: '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces',
    params: vmPathParams,
    check: (req) => requireVm(req, ['VM.GuestAgent.Audit', 'VM.GuestAgent.Unrestricted'], 'any'),
    handle: networkGetInterfaces,
  },
];
