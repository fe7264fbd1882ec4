/**
 * From Proxmox's view of a VM to the state a user sees (spec entries 7 and
 * 9). A VM is running only with an address (rules/guest-address.ts picks it).
 */
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
