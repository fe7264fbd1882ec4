/**
 * Day-two power operations (issue 16): start, shut down, stop and reboot a
 * proxy's VM, under the per-name lock like create and delete.
 *
 * Identity first: the VM at the ID's VMID must carry the ID's name and the
 * Egress Desk mark (and, when the caller knows it, the mark's UID), checked
 * with delete's identity check (ownership.ts `notTheOne`) on a config read
 * right before the one request that changes the VM. A VM that is not the one
 * meant is refused (permanent) with nothing sent to it.
 *
 * Idempotent: a start of a running VM and a stop or shutdown of a stopped (or
 * hibernated) VM succeed at once and send nothing that changes the VM. What
 * each state gets follows spec entry 9's table and qemu-server
 * (proxmox/qemu-server@e6352be6, src/PVE/API2/Qemu.pm vm_start, vm_stop,
 * vm_shutdown, vm_reboot, vm_resume; src/PVE/QemuServer.pm vm_start,
 * _do_vm_stop, vm_reboot):
 *
 * | state                        | start                   | shutdown                 | stop            | reboot                   |
 * | ---------------------------- | ----------------------- | ------------------------ | --------------- | ------------------------ |
 * | running                      | already running         | status/shutdown          | status/stop     | status/reboot            |
 * | stopped                      | status/start            | already stopped          | already stopped | refused: not running     |
 * | paused (qmpstatus not running) | status/resume         | refused: paused          | status/stop     | refused: paused          |
 * | hibernated (`lock: suspended`) | status/start (resumes) | already stopped        | already stopped | refused: not running     |
 * | locked by a task             | transient, lock named   | same                     | same            | same                     |
 *
 * Proxmox refuses a shutdown or reboot of a paused VM itself ("VM is paused -
 * cannot shutdown"), and a reboot of a stopped one ("VM <vmid> not running");
 * the core says so first, in plain words. A start of a paused VM would end
 * "VM <vmid> already running", so resume is sent instead.
 */
import { TaskFailedError } from '../../pve/errors';
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { ProviderError, transient, type PowerOp } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import type { Wanted } from '../cluster/ownership';
import { pollUntil } from '../calls/poll';
import { progressReporter, type ProgressReporter } from '../calls/progress';
import { resolveVm } from '../cluster/resources';
import { LOCK_SUSPENDED, waitRunning } from '../calls/tasks';
import { runTaskStep } from '../calls/task-step';
import { goneError, lockedError, readConfigOrGone, refuseIfNotTheOne } from '../cluster/vm-lookup';

export type { PowerOp } from '../rules/errors';

/** What a power operation found the VM in: paused covers any qmpstatus of a running VM other than running. */
export type PowerState = 'running' | 'stopped' | 'paused' | 'hibernated';

export interface PowerOptions extends CallOptions {
  /** The UID in the mark the caller saw; without it any marked VM with the ID's name is ours (as delete). */
  expect?: { uid: string };
  /** Shutdown and reboot: seconds the guest has to power off before the task fails (default 60, Proxmox's own). */
  timeoutSeconds?: number;
}

export interface PowerResult {
  op: PowerOp;
  id: string;
  node: string;
  vmid: number;
  /** False when the VM already was as asked and nothing was sent to it. */
  changed: boolean;
  /** What the VM was found in before the operation. */
  was: PowerState;
  /** Plain words: "started", "already running", "already stopped", … */
  message: string;
}

/** The ProviderError codes a caller can act on. */
export const POWER_CODES = {
  /** The guest did not power off within the timeout: offer to wait longer or stop it. */
  shutdownTimeout: 'shutdown-timeout',
  /** A shutdown or reboot of a paused VM. */
  paused: 'paused',
  /** A reboot of a VM that does not run. */
  notRunning: 'not-running',
  /** The VM at the VMID is not the one meant. */
  notTheOne: 'not-the-one',
} as const;

export const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 60;

export async function power(ctx: CoreContext, op: PowerOp, id: string, options: PowerOptions = {}): Promise<PowerResult> {
  const { signal } = options;
  const report = progressReporter(op, options.onProgress);
  try {
    const { vmid, name } = parseProviderId(id);
    const release = await ctx.locks.acquire(name, signal);
    try {
      const found = await lookup(ctx, vmid, { name, ...(options.expect ? { uid: options.expect.uid } : {}) }, report, signal);
      const result = await act(ctx, op, id, found, options, report);
      ctx.log.info('proxmox vm power', { op, id, node: found.node, vmid, was: found.state, changed: result.changed });
      return result;
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError(op, e, id);
  }
}

interface Found {
  node: string;
  vmid: number;
  state: PowerState;
  qmpstatus?: string | undefined;
}

/** The identity and the state, read fresh. Gone is not-found; a lock or an unknown status is transient. */
async function lookup(ctx: CoreContext, vmid: number, want: Wanted, report: ProgressReporter, signal?: AbortSignal): Promise<Found> {
  report('lookup', 'started', { vmid });
  const r = await resolveVm(ctx, vmid, { signal });
  if (!r) throw goneError(vmid);
  if (r.lock && r.lock !== LOCK_SUSPENDED) throw lockedError(vmid, r.lock);
  if (r.status === 'unknown' || !r.node) {
    throw transient(`VM ${vmid} has status unknown: its node ${r.node ?? '?'} is not answering, or the VM is too new to be reported yet`);
  }
  const node = r.node;
  const config = await readConfigOrGone(ctx, node, vmid, signal);
  refuseIfNotTheOne(vmid, config, want, POWER_CODES.notTheOne);
  if (config.lock === LOCK_SUSPENDED) {
    report('lookup', 'done', { node, vmid });
    return { node, vmid, state: 'hibernated' };
  }
  if (config.lock) throw lockedError(vmid, config.lock);
  const status = await ctx.api.vmStatus(node, vmid, { signal });
  report('lookup', 'done', { node, vmid });
  if (status.status !== 'running') return { node, vmid, state: 'stopped' };
  const q = status.qmpstatus;
  return { node, vmid, state: q === 'running' || q === undefined || q === '' ? 'running' : 'paused', qmpstatus: q };
}

function refused(message: string, hint: string, code: string): ProviderError {
  return new ProviderError('permanent', message, undefined, undefined, hint, code);
}

async function act(
  ctx: CoreContext,
  op: PowerOp,
  id: string,
  vm: Found,
  options: PowerOptions,
  report: ProgressReporter,
): Promise<PowerResult> {
  const { signal } = options;
  const { node, vmid } = vm;
  const at = { node, vmid };
  const result = (changed: boolean, message: string): PowerResult => ({ op, id, node, vmid, changed, was: vm.state, message });
  const paused = `VM ${vmid} is paused (qmpstatus ${vm.qmpstatus ?? '?'})`;
  const timeout = options.timeoutSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS;

  switch (op) {
    case 'start': {
      if (vm.state === 'running') {
        report('start', 'skipped', at);
        report('wait-running', 'skipped', at);
        return result(false, 'already running');
      }
      // Paused: a start would end "already running" (vm_start); resume continues it. Hibernated: vm_start resumes it.
      const submit = vm.state === 'paused' ? () => ctx.api.resume(node, vmid, { signal }) : () => ctx.api.start(node, vmid, { signal });
      await runTaskStep(ctx, report, { step: 'start', at, submit, budgetMs: ctx.budgets.startMs, signal });
      report('wait-running', 'started', at);
      await waitRunning(ctx, node, vmid, signal);
      report('wait-running', 'done', at);
      const how = { paused: 'resumed', hibernated: 'resumed from hibernation', stopped: 'started', running: 'started' } as const;
      return result(true, how[vm.state]);
    }
    case 'stop': {
      if (vm.state === 'stopped' || vm.state === 'hibernated') {
        report('stop', 'skipped', at);
        return result(false, vm.state === 'hibernated' ? 'already stopped (hibernated: a start resumes it)' : 'already stopped');
      }
      await runTaskStep(ctx, report, {
        step: 'stop',
        at,
        submit: () => ctx.api.stop(node, vmid, { signal }),
        budgetMs: ctx.budgets.stopMs,
        signal,
      });
      return result(true, 'stopped');
    }
    case 'shutdown': {
      if (vm.state === 'stopped' || vm.state === 'hibernated') {
        report('shutdown', 'skipped', at);
        return result(false, vm.state === 'hibernated' ? 'already stopped (hibernated: a start resumes it)' : 'already stopped');
      }
      if (vm.state === 'paused') {
        throw refused(
          `${paused}: a paused guest cannot act on a shutdown request; nothing was sent.`,
          'Start it to resume it, then shut it down, or stop it.',
          POWER_CODES.paused,
        );
      }
      const submit = () => ctx.api.shutdown(node, vmid, { timeout, forceStop: 0 }, { signal });
      await guestTimeout(vmid, timeout, 'shut down', () =>
        runTaskStep(ctx, report, { step: 'shutdown', at, submit, budgetMs: timeout * 1000 + ctx.budgets.stopMs, signal }),
      );
      return result(true, 'shut down');
    }
    case 'reboot': {
      if (vm.state === 'paused') {
        throw refused(
          `${paused}: a paused guest cannot reboot; nothing was sent.`,
          'Start it to resume it, then reboot it, or stop it.',
          POWER_CODES.paused,
        );
      }
      if (vm.state !== 'running') {
        const what = vm.state === 'hibernated' ? 'hibernated' : 'stopped';
        throw refused(`VM ${vmid} is ${what}: there is nothing to reboot; nothing was sent.`, 'Start it instead.', POWER_CODES.notRunning);
      }
      const submit = () => ctx.api.reboot(node, vmid, { timeout }, { signal });
      await guestTimeout(vmid, timeout, 'reboot', () =>
        runTaskStep(ctx, report, { step: 'reboot', at, submit, budgetMs: timeout * 1000 + ctx.budgets.stopMs, signal }),
      );
      // The qmreboot task ends once the guest is down; qmeventd starts it again as its own task (qemu-server qm.pm cleanup).
      report('wait-running', 'started', at);
      await waitBackUp(ctx, node, vmid, signal);
      report('wait-running', 'done', at);
      return result(true, 'rebooted');
    }
  }
}

/** qemu-server _do_vm_stop without force: `VM quit/powerdown failed - got timeout` once the guest outlasts the timeout. */
const GOT_TIMEOUT = /powerdown failed - got timeout/;

async function guestTimeout(vmid: number, timeout: number, what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (e) {
    if (!(e instanceof TaskFailedError) || !GOT_TIMEOUT.test(e.exitstatus)) throw e;
    throw new ProviderError(
      'transient',
      `VM ${vmid} did not ${what} within ${timeout} s: the guest ignored the shutdown request (${e.exitstatus}). It is still running.`,
      undefined,
      undefined,
      'Wait longer (shut it down again with a longer timeout) or stop it.',
      POWER_CODES.shutdownTimeout,
    );
  }
}

/** After a reboot task: stopped for a moment until qmeventd's start, then running/running. */
export async function waitBackUp(ctx: CoreContext, node: string, vmid: number, signal?: AbortSignal): Promise<void> {
  const budgetMs = ctx.budgets.startMs + ctx.budgets.runningMs;
  await pollUntil({ schedule: ctx.budgets, budgetMs, what: `VM ${vmid} to run again after its reboot`, signal }, async () => {
    const status = await ctx.api.vmStatus(node, vmid, { signal, loop: true });
    return status.status === 'running' && status.qmpstatus === 'running' ? true : undefined;
  });
}
