/**
 * What a task that did not finish offers, decided here in main so every
 * window says the same: the steps as they ended (never "pending" for ever),
 * what a create left in Proxmox (what Clean up deletes), whether Retry can
 * help (a transient failure, or a cancel) and, for a failure the admin must
 * fix, where in the app to fix it.
 */
import type { FixAt, StepView, TaskView } from '../../../../shared/channels/tasks';
import type { AppErrorValue } from '../../../../shared/errors';
import type { TaskRecord } from './task-record';
import { buildLeftBehindOf } from './build-offers';

/** The steps of a task that ended badly: the one it was on failed (or was cancelled); the ones after it never ran. */
export function settleSteps(steps: readonly StepView[], how: 'failed' | 'cancelled'): StepView[] {
  return steps.map((s) => {
    if (s.state === 'running') return { ...s, state: how };
    if (s.state === 'pending') return { ...s, state: 'not-run' };
    return s;
  });
}

const made = (s: StepView | undefined) => s?.state === 'done' || s?.state === 'skipped';
/** Begun and not known to have finished: Proxmox may have made its part. */
const begun = (s: StepView | undefined) => s?.state === 'failed' || s?.state === 'cancelled' || s?.state === 'running';

/**
 * What a create that did not finish left in Proxmox, in words: "VM 150123 and its seed", "the seed
 * proxy-a-seed.iso", or undefined when it made nothing. A clone or an upload cut off while it ran counts as
 * "possibly" left: Clean up checks the mark's UID before it deletes anything, so offering it is safe.
 */
export function leftBehindOf(task: TaskRecord): string | undefined {
  const input = task.input;
  if (input.kind === 'build-template') return buildLeftBehindOf(task);
  if (input.kind !== 'create-proxy' || task.closedBy !== undefined) return undefined;
  if (task.state !== 'failed' && task.state !== 'cancelled' && task.state !== 'interrupted') return undefined;
  const step = (name: string) => task.steps.find((s) => s.name === name);
  const clone = step('clone');
  const seed = step('upload-seed');
  // Later steps change the VM the clone made; they are what tells a VM is there when the clone step was adopted.
  const vmSure = task.vmid !== undefined && (made(clone) || ['migrate', 'configure', 'resize', 'start', 'wait-running'].some((n) => made(step(n)) || begun(step(n))));
  const vmMaybe = task.vmid !== undefined && !vmSure && begun(clone);
  const seedSure = made(seed);
  const seedMaybe = !seedSure && begun(seed);
  const parts: string[] = [];
  if (vmSure || vmMaybe) parts.push(`VM ${task.vmid}`);
  if (seedSure || seedMaybe) parts.push(parts.length > 0 ? 'its seed' : `the seed ${input.name}-seed.iso`);
  if (parts.length === 0) return undefined;
  const sure = (vmSure || !vmMaybe) && (seedSure || !seedMaybe);
  return `${sure ? '' : 'possibly '}${parts.join(' and ')}`;
}

/**
 * Retry helps after a transient failure or a cancel; a permanent failure fails the same way until something changes.
 * A recreate is the exception: once its delete half ran, Retry (after the fix) is the way to make the proxy again with
 * the same name, template, machine type and user-data, which no new request can (the old VM it names is gone).
 */
export function retryHelps(task: Pick<TaskRecord, 'state' | 'error'> & Partial<Pick<TaskRecord, 'kind' | 'steps'>>): boolean {
  if (task.state === 'cancelled') return true;
  if (task.state === 'failed' && task.kind === 'recreate-proxy' && task.steps?.some((s) => s.name === 'destroy' && made(s))) return true;
  return task.state === 'failed' && (task.error === undefined || task.error.kind === 'transient');
}

/** Where an admin fixes a failure, by what it says; ordered: the first rule that matches wins. */
const fixRules: [RegExp, FixAt][] = [
  // The cluster's connection: the token, its secret, its privileges, TLS, the profile's fields.
  [/token secret|secret .*not available|could not be decrypted/i, 'settings'],
  [/\b401\b|authentication|ticket|token (was )?refused|invalid token/i, 'settings'],
  [/\b403\b|permission|privilege|forbidden/i, 'settings'],
  [/certificate|fingerprint|\btls\b/i, 'settings'],
  // What a proxy is made from: the template, the machine type, the disk and network the template brings.
  [/placement\.image|template|placement\.machineType|machine ?type|boot disk|no net0|cloud-init drive/i, 'templates'],
  [/placement\.zone|profile|bridge|vlan|storage/i, 'settings'],
];

/** The place in the app to fix a failure that retrying cannot help; undefined when the fix is outside the app. */
export function fixAtOf(error: AppErrorValue | undefined): FixAt | undefined {
  if (!error || error.kind === 'transient') return undefined;
  const text = `${error.message}\n${error.hint}`;
  // A VM of the same name that is not this proxy's: fixed in Proxmox (or with another name), not in a settings page.
  if (/carries no Egress Desk mark|belongs to proxy uid|are all named|hibernated/i.test(error.message)) return undefined;
  return fixRules.find(([re]) => re.test(text))?.[1];
}

/**
 * Issue 16: a shutdown (or reboot) the guest ignored, its last run failed at the timeout: Stop it (a hard stop, as a
 * new task on the same VM) and Wait longer (the same request, its timeout doubled). Nothing once a later task closed it.
 */
export function powerOffersOf(task: TaskRecord): ('stop-it' | 'wait-longer')[] {
  const input = task.input;
  if (input.kind !== 'shutdown-proxy' && input.kind !== 'reboot-proxy') return [];
  if (task.state !== 'failed' || !input.timedOut || task.closedBy !== undefined) return [];
  return ['stop-it', 'wait-longer'];
}

/** A view's outcome fields, derived from the record. */
export function outcomeOf(task: TaskRecord): Pick<TaskView, 'leftBehind'> {
  const leftBehind = leftBehindOf(task);
  return leftBehind ? { leftBehind } : {};
}
