/**
 * Issue 16: an action over a selection of VMs (the Proxies toolbar, the
 * keyboard shortcuts). Each VM is judged alone by proxy-actions.ts; the
 * action is offered when it applies to at least one, runs on those, and
 * names the others with why they are left out. Pure, like proxy-actions.ts.
 */
import { powerActions, type PowerAction } from './power-actions';
import { actionApplies, type ActionSubject, type ProxyAction } from './proxy-actions';

export const isPowerAction = (action: ProxyAction): action is PowerAction => (powerActions as readonly string[]).includes(action);

export interface BulkSplit<T> {
  /** The VMs the action applies to. */
  apply: T[];
  /** The VMs it does not apply to, each with the reason. */
  skip: { item: T; reason: string }[];
  /** True when any VM it applies to is operator-made: the user must acknowledge the operator warning first. */
  needsAcknowledgement: boolean;
}

export function splitByAction<T extends ActionSubject>(items: readonly T[], action: ProxyAction): BulkSplit<T> {
  const split: BulkSplit<T> = { apply: [], skip: [], needsAcknowledgement: false };
  for (const item of items) {
    const verdict = actionApplies(item, action);
    if (!verdict.enabled) split.skip.push({ item, reason: verdict.reason ?? 'It does not apply.' });
    else {
      split.apply.push(item);
      if (verdict.warning) split.needsAcknowledgement = true;
    }
  }
  return split;
}

/** Whether the toolbar offers the action for this selection, and why not: the one reason all share, or a count. */
export function bulkApplies(items: readonly ActionSubject[], action: ProxyAction): { enabled: boolean; reason?: string } {
  if (items.length === 0) return { enabled: false, reason: 'Select one or more proxies first.' };
  const { apply, skip } = splitByAction(items, action);
  if (apply.length > 0) return { enabled: true };
  const reasons = new Set(skip.map((s) => s.reason));
  if (items.length === 1 || reasons.size === 1) return { enabled: false, reason: skip[0]!.reason };
  return { enabled: false, reason: `It applies to none of the ${items.length} selected VMs (each one's reason is in its row's menu).` };
}

/**
 * The actions that ask first, naming the VMs: the ones that cut a running guest off (stop, reboot, a live migrate),
 * the ones that replace or remove the VM (recreate, delete), and any action on an operator-made VM (its warning).
 */
/** Migrate, reconfigure and recreate are one request for one cluster (one target node, one profile's machine types). */
export const oneClusterAtATime = (action: ProxyAction): boolean =>
  action === 'migrate' || action === 'reconfigure' || action === 'recreate';

export function confirmsFirst(action: ProxyAction, items: readonly ActionSubject[]): boolean {
  if (action === 'stop' || action === 'reboot' || action === 'recreate' || action === 'delete') return true;
  if (action === 'migrate' && items.some((i) => i.status === 'running')) return true;
  return splitByAction(items, action).needsAcknowledgement;
}
