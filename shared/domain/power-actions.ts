/**
 * Issue 16: which power actions apply to a VM in the state the inventory
 * shows. Pure, shared by main (tasks.power refuses what does not apply) and
 * the renderer (the drawer disables it and says why). What the core does in
 * each state is in main/core/provider/operations/power.ts; this only decides what is
 * worth offering from the row.
 */

export const powerActions = ['start', 'shutdown', 'stop', 'reboot'] as const;
export type PowerAction = (typeof powerActions)[number];

/**
 * What the row says about the VM: VmRow's fields (shared/channels/inventory.ts), the same as the cluster listing's.
 * The raw status, not the row's state: a running VM still waiting for its address shows as provisioning, yet can be
 * stopped or rebooted.
 */
export interface PowerSubject {
  /** Proxmox's status word: running, stopped, unknown. */
  status: string;
  owner: 'marked' | 'foreign' | 'pending';
  /** A Proxmox lock; `suspended` is a hibernated VM (a start resumes it), any other is a task holding the VM. */
  lock?: string | undefined;
}

export interface PowerApplicability {
  enabled: boolean;
  /** Why not, in plain words (the button's title, main's refusal). */
  reason?: string;
}

/** The words of each action on a button and in a task. */
export const powerActionLabel: Record<PowerAction, string> = {
  start: 'Start',
  shutdown: 'Shut down',
  stop: 'Stop',
  reboot: 'Reboot',
};

const no = (reason: string): PowerApplicability => ({ enabled: false, reason });
const yes: PowerApplicability = { enabled: true };

/** Whether `action` applies to the VM now, and why not. */
export function powerApplies(vm: PowerSubject, action: PowerAction): PowerApplicability {
  if (vm.owner === 'foreign') return no('This VM carries no proxy mark: Egress Desk never touches it.');
  if (vm.owner === 'pending') return no('Its mark is not read yet: wait for the next refresh.');
  if (vm.lock && vm.lock !== 'suspended') return no(`It is locked (${vm.lock}): wait for the task that holds it to end.`);
  if (vm.status !== 'running' && vm.status !== 'stopped')
    return no('Its state is unknown (its node is not answering): wait for the next refresh.');
  const running = vm.status === 'running';
  switch (action) {
    case 'start':
      return running ? no('It is already running.') : yes;
    case 'shutdown':
    case 'stop':
      return running ? yes : no(vm.lock === 'suspended' ? 'It is hibernated (stopped): Start resumes it.' : 'It is already stopped.');
    case 'reboot':
      return running ? yes : no('It is not running: start it instead.');
  }
}

/** Every action's applicability, in button order. */
export function powerApplicability(vm: PowerSubject): Record<PowerAction, PowerApplicability> {
  return {
    start: powerApplies(vm, 'start'),
    shutdown: powerApplies(vm, 'shutdown'),
    stop: powerApplies(vm, 'stop'),
    reboot: powerApplies(vm, 'reboot'),
  };
}
