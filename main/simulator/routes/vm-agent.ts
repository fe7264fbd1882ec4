/**
 * The guest agent's network-get-interfaces with the three failures of F5.
 * The address appears `agentDelayMs` (simulated) after start, as it did
 * about 50 s after start on the real host (F21).
 */
import { fixtureJson } from '../../../fixtures';
import type { Route, RouteRequest } from '../context';
import { optionOf } from '../disks';
import { textError } from '../errors';
import type { SimVm } from '../state';
import { requireVm, vmOf, vmPathParams } from './vm-common';

interface AgentInterface {
  name: string;
  'hardware-address'?: string;
  'ip-addresses'?: { 'ip-address': string; 'ip-address-type': string; prefix: number }[];
}

function agentEnabled(vm: SimVm): boolean {
  const value = vm.config.agent;
  if (value === undefined) return false;
  const enabled = optionOf(String(value), 'enabled') ?? String(value).split(',')[0];
  return enabled === '1' || enabled === 'true';
}

/** The guest's address: the configured one, or one derived from the VMID on the VLAN of net0. */
export function guestIp(vm: SimVm): string {
  if (vm.ip) return vm.ip;
  const tag = optionOf(String(vm.config.net0 ?? ''), 'tag');
  return `192.168.${tag ?? 0}.${100 + (vm.vmid % 150)}`;
}

/** The captured answer with this VM's MAC and address in place of the captured ones. */
function interfaces(vm: SimVm, withAddress: boolean): { result: AgentInterface[] } {
  const tagged = optionOf(String(vm.config.net0 ?? ''), 'tag') !== undefined;
  const captured = fixtureJson<{ data: { result: AgentInterface[] } }>(
    tagged ? 'agent_network_get_interfaces_vlan' : 'agent_network_get_interfaces',
  )!.data;
  const mac = /=([0-9A-Fa-f:]{17})/.exec(String(vm.config.net0 ?? ''))?.[1]?.toLowerCase();
  const result = captured.result.map((iface) => {
    if (iface.name === 'lo') return iface;
    const copy: AgentInterface = {
      ...iface,
      'ip-addresses': (iface['ip-addresses'] ?? []).filter((a) => withAddress || a['ip-address-type'] !== 'ipv4'),
    };
    for (const a of copy['ip-addresses'] ?? []) if (a['ip-address-type'] === 'ipv4') Object.assign(a, { 'ip-address': guestIp(vm) });
    if (mac) copy['hardware-address'] = mac;
    return copy;
  });
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
