/**
 * Main's side of the row actions' rules (shared/domain/proxy-actions.ts
 * actionApplies): the verdict the UI shows in a tooltip or a confirmation,
 * for a VM a request names, as read now. An operator-made VM (marked, with
 * no record of this app making it: proxy-records.ts) gets each action only
 * after the user confirmed the operator warning, since the operator
 * reconciles its proxies and may undo the change; the request says so with
 * `acknowledgeOperatorWarning: true`.
 */
import { actionApplies, type ActionApplicability, type ProxyAction } from '../../../../shared/domain/proxy-actions';
import type { ClusterResource } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { IdentityWords } from './identity';

/** A marked VM (its mark already matched: identity.ts) as the listing shows it, with whether this app made it. */
export function verdictFor(vm: ClusterResource, action: ProxyAction, ours: boolean): ActionApplicability {
  return actionApplies({ status: vm.status ?? 'unknown', owner: 'marked', lock: vm.lock, ours }, action);
}

/**
 * Refuses the whole request, before any task, when a target the verdict warns about (an operator-made VM) was asked
 * for without the acknowledgement; names each such VM.
 */
export function requireAcknowledgement(
  targets: readonly { vmid: number; name: string; verdict: ActionApplicability }[],
  acknowledged: boolean | undefined,
  words: IdentityWords,
): void {
  if (acknowledged) return;
  const warned = targets.filter((t) => t.verdict.warning !== undefined);
  if (warned.length === 0) return;
  const names = warned.map((t) => `${t.name} (VM ${t.vmid})`).join(', ');
  const one = warned.length === 1;
  throw new AppError(
    'invalid-input',
    `${names} ${one ? 'was' : 'were'} not made by this app: the operator that made ${one ? 'it' : 'them'} reconciles ${one ? 'it' : 'them'} and may undo this change. ${words.nothing}`,
    'Confirm the operator warning to go on (acknowledgeOperatorWarning), only if you know the operator will not undo it; or make the change through the operator.',
    'acknowledgeOperatorWarning',
  );
}
