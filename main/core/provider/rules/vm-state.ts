/**
 * From Proxmox's view of a VM to the state a user sees (spec entries 7 and
 * 9). A VM is running only with an address.
 */
import type { AgentInterface } from '../../pve/schemas';

export type VmState = 'running' | 'provisioning' | 'stopped';

/** The guest runs: the only state in which its agent can answer. A missing qmpstatus is not a state. */
export function guestRunning(status: string, qmpstatus: string | undefined): boolean {
  return status === 'running' && (qmpstatus === 'running' || qmpstatus === undefined || qmpstatus === '');
}

/** Prelaunch is still starting; any other qmpstatus of a running VM (paused, io-error, …) and any unknown status is stopped. */
export function mapState(status: string, qmpstatus: string | undefined, ip: string): VmState {
  if (guestRunning(status, qmpstatus)) return ip ? 'running' : 'provisioning';
  if (status === 'running' && qmpstatus === 'prelaunch') return 'provisioning';
  return 'stopped';
}

function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p))) return undefined;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

function usable(octets: number[]): boolean {
  const [a, b] = octets;
  const unspecified = octets.every((o) => o === 0);
  return !unspecified && a !== 127 && !(a === 169 && b === 254);
}

/** The first IPv4, in the agent's order, of the first non-loopback interface that has one not loopback, link-local or unspecified. */
export function firstIpv4(interfaces: readonly AgentInterface[]): string {
  for (const iface of interfaces) {
    if (iface.name === 'lo') continue;
    for (const address of iface['ip-addresses'] ?? []) {
      if (address['ip-address-type'] !== 'ipv4') continue;
      const octets = ipv4Octets(address['ip-address']);
      if (octets && usable(octets)) return octets.join('.');
    }
  }
  return '';
}
