/**
 * Issue 16: which actions apply to a VM, for every action on a row (power,
 * console, migrate, reconfigure, recreate, delete), with the reason for each
 * one that does not (the UI's tooltip, main's refusal) and the warning an
 * operator-made VM's action carries. Pure, shared by main (the task channels
 * refuse what does not apply) and the renderer.
 *
 * Ownership: a foreign VM (no proxy mark) gets only read-only actions, here
 * the console (the app sends nothing; Proxmox checks the user's own login);
 * a marked VM this app did not make (`ours: false`: the operator made it, or
 * another install of the app) gets each action after a warning, since the
 * operator reconciles its proxies and may undo the change.
 */
import { powerActions, powerApplies, type PowerAction, type PowerApplicability, type PowerSubject } from './power-actions';

export const proxyActions = [...powerActions, 'console', 'migrate', 'reconfigure', 'recreate', 'delete'] as const;
export type ProxyAction = (typeof proxyActions)[number];

/** The actions that change nothing on Proxmox. */
export const readOnlyActions: readonly ProxyAction[] = ['console'];

export interface ActionSubject extends PowerSubject {
  /** For a marked VM: true when this app made it, false when it has no record of it (VmRow.ours). */
  ours?: boolean | undefined;
  /** The profile's nodes other than the VM's that are online: where a migrate can go. */
  otherNodesOnline?: number | undefined;
}

export interface ActionApplicability extends PowerApplicability {
  /** Enabled, but ask first: the words of the confirmation (an operator-made VM). */
  warning?: string;
}

export const proxyActionLabel: Record<ProxyAction, string> = {
  start: 'Start',
  shutdown: 'Shut down',
  stop: 'Stop',
  reboot: 'Reboot',
  console: 'Console',
  migrate: 'Migrate',
  reconfigure: 'Reconfigure',
  recreate: 'Recreate',
  delete: 'Delete',
};

/**
 * The confirmation's words for proxies the operator made: the app recognises the operator's mark (issue 23 item 13),
 * so it says who made them, not only that it did not.
 */
export function operatorWarning(operatorMade = 1, of = operatorMade): string {
  const one = operatorMade === 1;
  const who =
    operatorMade === of
      ? one
        ? 'This proxy was'
        : `These ${operatorMade} proxies were`
      : `${operatorMade} of these ${of} proxies ${one ? 'was' : 'were'}`;
  return `${who} made by the proxy operator (the mark is the operator's), not by this app: the operator reconciles ${one ? 'it' : 'them'} and may undo this change. Go on only if you know it will not.`;
}

export const OPERATOR_WARNING = operatorWarning();

const no = (reason: string): ActionApplicability => ({ enabled: false, reason });

function isPower(action: ProxyAction): action is PowerAction {
  return (powerActions as readonly string[]).includes(action);
}

/** Whether `action` applies to the VM now; why not; and the warning to confirm when it does. */
export function actionApplies(vm: ActionSubject, action: ProxyAction): ActionApplicability {
  // The console is a link to the Proxmox UI, which checks the user's own login; for a stopped VM it offers Start.
  if (action === 'console') return { enabled: true };
  if (vm.owner === 'foreign') return no('This VM carries no proxy mark: Egress Desk only opens its console, and changes nothing on it.');
  if (vm.owner === 'pending') return no('Its mark is not read yet: wait for the next refresh.');
  if (vm.lock && vm.lock !== 'suspended') return no(`It is locked (${vm.lock}): wait for the task that holds it to end.`);
  let verdict: ActionApplicability;
  if (isPower(action)) verdict = powerApplies(vm, action);
  else if (vm.status !== 'running' && vm.status !== 'stopped')
    verdict = no('Its state is unknown (its node is not answering): wait for the next refresh.');
  else if (action === 'migrate' && vm.lock === 'suspended') verdict = no('It is hibernated: start it (to resume it) or stop it first.');
  else if (action === 'migrate' && vm.otherNodesOnline === 0)
    verdict = no('No other node of this cluster profile is online to move it to.');
  else verdict = { enabled: true };
  return verdict.enabled && vm.ours === false ? { ...verdict, warning: OPERATOR_WARNING } : verdict;
}

/** Every action's applicability, in menu order. */
export function actionApplicability(vm: ActionSubject): Record<ProxyAction, ActionApplicability> {
  return Object.fromEntries(proxyActions.map((a) => [a, actionApplies(vm, a)])) as Record<ProxyAction, ActionApplicability>;
}
