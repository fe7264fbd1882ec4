/**
 * Sends an action's request for some rows, one request per cluster (a
 * bulk request is one parent task with a child per VM, in main), and puts
 * the answer in words. Every rule was applied before: main refuses again
 * whatever does not apply (shared/domain/proxy-actions.ts).
 */
import type { PowerAction } from '../../../../../shared/domain/power-actions';
import { proxyActionLabel, type ProxyAction } from '../../../../../shared/domain/proxy-actions';
import type { AppErrorValue, Envelope } from '../../../../../shared/errors';
import { useTasks } from '../../../stores/tasks';
import type { ProxyRow } from '../rows';

export interface ActionOutcome {
  action: ProxyAction;
  /** Tasks started (children, or the one task). */
  started: number;
  /** The parent task of a bulk request, else the one task: what "Watch in Tasks" opens. */
  taskId: string | undefined;
  error: AppErrorValue | undefined;
}

type Started = Envelope<{ parentId?: string; taskIds: string[] }>;

export const targetOf = (r: ProxyRow) => ({ vmid: r.vmid, name: r.name ?? '' });

export function byCluster(rows: readonly ProxyRow[]): Map<string, ProxyRow[]> {
  const groups = new Map<string, ProxyRow[]>();
  for (const r of rows) groups.set(r.clusterId, [...(groups.get(r.clusterId) ?? []), r]);
  return groups;
}

/** Runs `send` once per cluster and sums the answers. */
export async function perCluster(
  action: ProxyAction,
  rows: readonly ProxyRow[],
  send: (clusterId: string, group: ProxyRow[]) => Promise<Started>,
): Promise<ActionOutcome> {
  const outcome: ActionOutcome = { action, started: 0, taskId: undefined, error: undefined };
  for (const [clusterId, group] of byCluster(rows)) {
    const answer = await send(clusterId, group);
    if (answer.ok) {
      outcome.started += answer.value.taskIds.length;
      outcome.taskId ??= answer.value.parentId ?? answer.value.taskIds[0];
    } else outcome.error = answer.error;
  }
  return outcome;
}

/** `acknowledged`: the user ticked the operator warning (an operator-made VM is among the rows). */
export function runPower(action: PowerAction, rows: readonly ProxyRow[], acknowledged = false): Promise<ActionOutcome> {
  const { power } = useTasks.getState();
  return perCluster(action, rows, (clusterId, group) =>
    power({ clusterId, targets: group.map(targetOf), action, ...(acknowledged ? { acknowledgeOperatorWarning: true as const } : {}) }),
  );
}

/** "Started 3 reboot tasks." / "Started the start task of proxy-1." */
export function outcomeText(o: ActionOutcome, rows: readonly ProxyRow[]): string {
  const label = proxyActionLabel[o.action].toLowerCase();
  if (o.started === 1 && rows.length === 1) return `Started the ${label} task of ${rows[0]!.name ?? `VM ${rows[0]!.vmid}`}.`;
  return `Started ${o.started} ${label} ${o.started === 1 ? 'task' : 'tasks'}.`;
}
