/**
 * The tasks.power and tasks.powerOffer channels (issue 16): one task per VM
 * (under one parent when there are several). What each target means is read
 * now (identity.ts): a VM whose VMID, name and mark disagree, a foreign one,
 * or one the action does not apply to (shared/domain/proxy-actions.ts,
 * the UI's own verdict) refuses the whole request before any task exists;
 * so does an operator-made one without the operator warning acknowledged.
 */
import type { PowerInput } from '../../../../shared/channels/tasks';
import { powerActionLabel, type PowerAction } from '../../../../shared/domain/power-actions';
import { DEFAULT_SHUTDOWN_TIMEOUT_SECONDS } from '../../../core';
import { AppError } from '../../../errors/app-error';
import { distinctTargets, submitBulk } from './bulk';
import { resolveTargets, type ResolvedTarget } from './identity';
import type { ManagerParts } from '../manager-parts';
import { requireAcknowledgement, verdictFor } from './operator-warning';
import type { ProxyRecords } from '../records/proxy-records';
import { isPowerInput, type PowerProxyInput } from '../records/task-record';
import { toView } from '../records/task-view';

const done: Record<PowerAction, string> = { start: 'started', shutdown: 'shut down', stop: 'stopped', reboot: 'rebooted' };

export function powerRequests(parts: ManagerParts, records: ProxyRecords) {
  async function power(input: PowerInput): Promise<{ parentId?: string; taskIds: string[] }> {
    const cluster = parts.directory.get(input.clusterId);
    const { action } = input;
    const label = powerActionLabel[action];
    distinctTargets(
      input.targets,
      (t) => t.vmid,
      (t) => new AppError('invalid-input', `VM ${t.vmid} is asked for twice.`, 'Pick each proxy once.', 'targets'),
    );
    const words = { nothing: `Nothing was ${done[action]}.`, acts: `${label.toLowerCase()}s`, action: label };
    const verdict = (t: ResolvedTarget) => verdictFor(t.vm, action, records.ours(cluster.id, t.uid));
    const resolved = await resolveTargets(cluster, input.targets, words, (t) => {
      const applies = verdict(t);
      return applies.enabled ? undefined : (applies.reason ?? 'does not apply');
    });
    requireAcknowledgement(
      resolved.map((t) => ({ ...t, verdict: verdict(t) })),
      input.acknowledgeOperatorWarning,
      words,
    );
    const kind = `${action}-proxy` as PowerProxyInput['kind'];
    const tasks = resolved.map((t) => {
      const record: PowerProxyInput = {
        kind,
        clusterId: cluster.id,
        vmid: t.vmid,
        name: t.name,
        uid: t.uid,
        ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
      };
      return parts.newRecord(kind, cluster.id, t.name, record, { vmid: t.vmid, ...(t.vm.node ? { node: t.vm.node } : {}) });
    });
    return submitBulk(parts, { kind: 'power-proxies', clusterId: cluster.id, target: `${label} ${tasks.length} proxies` }, tasks);
  }

  /** After a shutdown the guest ignored: Stop it (a new stop task, closing this one) or Wait longer (this task again, its timeout doubled). */
  function powerOffer(id: string, offer: 'stop-it' | 'wait-longer', rerun: (id: string, action: 'retry') => unknown): { taskId: string } {
    const task = parts.mustGet(id);
    const input = task.input;
    if (!isPowerInput(input) || !toView(task).actions.includes(offer))
      throw new AppError(
        'permanent',
        `This task does not offer ${offer === 'stop-it' ? 'Stop it' : 'Wait longer'}: it is ${task.state}${task.closedBy ? ' and was followed by another task' : ''}.`,
        'Stop it and Wait longer follow a shutdown or reboot the guest ignored.',
      );
    if (offer === 'wait-longer') {
      const timeoutSeconds = Math.min(3600, 2 * (input.timeoutSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS));
      parts.store.update(id, { input: { ...input, timeoutSeconds, timedOut: undefined } });
      rerun(id, 'retry');
      return { taskId: id };
    }
    const stop: PowerProxyInput = { kind: 'stop-proxy', clusterId: input.clusterId, vmid: input.vmid, name: input.name, uid: input.uid };
    const job = parts.newRecord('stop-proxy', task.clusterId, input.name, stop, {
      vmid: input.vmid,
      ...(task.node ? { node: task.node } : {}),
    });
    parts.afterChange(parts.store.update(id, { closedBy: job.id }));
    parts.submit(job);
    return { taskId: job.id };
  }

  return { power, powerOffer };
}
