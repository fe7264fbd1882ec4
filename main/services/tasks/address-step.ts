/**
 * A create's last step, "waiting for an address": once Proxmox's part is
 * done the task has succeeded, and it waits for the address the inventory
 * publishes (address-watch.ts). Without an inventory a create ends when
 * Proxmox's part does. Waits the last run left open go on at start.
 */
import { ADDRESS_STEP } from '../../../shared/channels/tasks';
import { AddressWatch, DEFAULT_ADDRESS_WAIT_MS, type AddressFeed, type AddressOutcome, type Watched } from './address-watch';
import type { ManagerParts } from './manager-parts';
import type { Notifier } from '../../ports/notifier';
import type { TaskRecord } from './records/task-record';

export interface AddressStepOptions {
  parts: ManagerParts;
  notifier: Notifier;
  feed?: AddressFeed | undefined;
  waitMs?: number | undefined;
}

export function createAddressStep({ parts, notifier, feed, waitMs }: AddressStepOptions) {
  const { store, now, log } = parts;

  function watchedOf(task: TaskRecord): Watched {
    const input = task.input as Extract<TaskRecord['input'], { kind: 'create-proxy' }>;
    return {
      taskId: task.id,
      clusterId: task.clusterId,
      vmid: task.vmid!,
      uid: input.uid,
      name: input.name,
      since: Date.parse(task.address?.since ?? now().toISOString()),
    };
  }

  function settled(w: Watched, outcome: AddressOutcome): void {
    const task = store.get(w.taskId);
    if (!task || task.address?.state !== 'waiting') return;
    const at = now().toISOString();
    const where = `VM ${w.vmid}${task.node ? ` on ${task.node}` : ''}`;
    const ready = outcome.state === 'ready';
    const steps = task.steps.map((s) => (s.name === ADDRESS_STEP ? { ...s, state: ready ? ('done' as const) : ('failed' as const) } : s));
    const fields: Partial<TaskRecord> = ready
      ? {
          steps,
          address: { ...task.address, state: 'ready', value: outcome.value, at },
          message: `${w.name} is ready at ${outcome.value} (${where}).`,
        }
      : {
          steps,
          address: { ...task.address, state: 'gave-up', at, reason: outcome.reason, hint: outcome.hint },
          message: `${w.name} runs (${where}), but has no address: ${outcome.reason}`,
        };
    try {
      parts.afterChange(store.update(w.taskId, fields));
    } catch (e) {
      log.warn('address of a created proxy not recorded', { id: w.taskId, error: String(e) });
      return;
    }
    if (ready) notifier.notify(`${w.name} is ready`, `Address ${outcome.value} · ${where}`, { taskId: w.taskId, tone: 'ok' });
    else notifier.notify(`${w.name}: no address`, `${outcome.reason} ${outcome.hint}`, { taskId: w.taskId, tone: 'warn' });
  }

  const watch = feed
    ? new AddressWatch({ feed, waitMs: waitMs ?? DEFAULT_ADDRESS_WAIT_MS, now: () => now().getTime(), settle: settled })
    : undefined;
  // A wait the last run left open goes on (within its bound, counted from when it began).
  if (watch)
    for (const t of store.all())
      if (t.address?.state === 'waiting' && t.vmid !== undefined && t.input.kind === 'create-proxy') watch.watch(watchedOf(t));

  /** Proxmox's part is done. A create with an inventory to feed it then waits for its address: its last step. */
  function succeeded(id: string, message: string): void {
    const task = parts.mustGet(id);
    if (task.kind !== 'create-proxy' || !watch || task.vmid === undefined || task.input.kind !== 'create-proxy') {
      parts.finish(id, { state: 'succeeded', progress: 1, message });
      return;
    }
    const since = now();
    const steps = task.steps.map((s) =>
      s.name === ADDRESS_STEP ? { ...s, state: 'running' as const, ...(task.node ? { node: task.node } : {}) } : s,
    );
    parts.finish(id, {
      state: 'succeeded',
      progress: 1,
      steps,
      message: `${message} Waiting for its address from the guest agent.`,
      address: { state: 'waiting', since: since.toISOString() },
    });
    watch.watch(watchedOf(parts.mustGet(id)));
  }

  return { succeeded, close: () => watch?.close() };
}
