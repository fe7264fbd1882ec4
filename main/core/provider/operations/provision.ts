/**
 * Steps 5 to 9 of create, each safe to repeat on a VM a previous attempt
 * left stopped: the upload overwrites, the config write replaces, the resize
 * is skipped once the disk is large enough. Everything the config alone can
 * refuse is checked before the first write.
 */
import type { CoreContext } from '../calls/context';
import type { OwnedVm } from '../cluster/ownership';
import type { Placement, CreateRequest } from '../cluster/placement';
import type { ProgressReporter } from '../calls/progress';
import { throwIfCancelled } from '../calls/poll';
import { waitRunning } from '../calls/tasks';
import { runTaskStep } from '../calls/task-step';
import { configParams, effectiveNet, resizePlan } from '../rules/vm-params';
import { staticMacOf } from '../rules/net0';
import { uploadSeed } from './seed-beside-clone';

export async function provision(
  ctx: CoreContext,
  vm: OwnedVm,
  placement: Placement,
  request: CreateRequest,
  report: ProgressReporter,
  signal?: AbortSignal,
  options: { seedUploaded?: boolean } = {},
): Promise<void> {
  const { node, vmid } = vm;
  const at = { node, vmid };
  const { isoStorage } = ctx.profile;
  const params = configParams(
    effectiveNet(ctx.profile, request.network, staticMacOf(request.uid, request.network)),
    vmid,
    vm.config,
    placement.machineType,
    ctx.seed.seedVolumeId(isoStorage, request.name),
  );
  const resize = resizePlan(vmid, vm.config, placement.machineType.diskGiB);

  // Uploaded over any old one on every attempt (a previous one may have been cut off), unless it went up beside
  // this attempt's clone (seed-beside-clone.ts).
  if (!options.seedUploaded) await uploadSeed(ctx, at, request, vm.config, report, signal);

  report('configure', 'started', at);
  await ctx.api.setVmConfig(node, vmid, params, { signal });
  report('configure', 'done', at);

  if (resize) {
    // PVE 7.4 (qemu-server before 8.0.2) grows the disk before it answers, with no task to wait on;
    // a rerun after a cut-off finds the disk large enough and skips the step.
    const submit = () => ctx.api.resize(node, vmid, resize.disk, resize.size, { signal });
    await runTaskStep(ctx, report, { step: 'resize', at, submit, budgetMs: ctx.budgets.resizeMs, signal });
  } else {
    report('resize', 'skipped', at);
  }

  // A failed start of a VM that runs anyway is a success: a previous attempt, cut off after submitting its start,
  // adopted the VM while it was still stopped, and its start ended first; this one then fails with "already running".
  // Judged by status/current, not by the task's text.
  const ended = await runTaskStep(ctx, report, {
    step: 'start',
    at,
    submit: () => ctx.api.start(node, vmid, { signal }),
    budgetMs: ctx.budgets.startMs,
    signal,
    doneAnyway: async (e) => {
      if ((await ctx.api.vmStatus(node, vmid, { signal })).status !== 'running') return false;
      ctx.log.info('proxmox start failed but the vm runs: an earlier start won', { vmid, node, upid: e.upid, exitstatus: e.exitstatus });
      return true;
    },
  });

  report('wait-running', 'started', at);
  // A start task that ended OK is QEMU running the guest: qemu-server's vm_start_nolock (PVE/QemuServer.pm) launches
  // kvm without `-S` unless the config sets `freeze`, waits for its QMP socket, and only then ends the task. So
  // status/current is read only when that is not known: a frozen guest, or a start that failed while the VM runs.
  if (ended !== 'ok' || frozen(vm.config)) await waitRunning(ctx, node, vmid, signal);
  else throwIfCancelled({ what: `VM ${vmid} to run`, signal }); // a cancel here still ends the create as cancelled
  report('wait-running', 'done', at);
}

/** `freeze: 1` starts QEMU with `-S` (qemu-server config_to_command): the guest waits in prelaunch for a `cont`. */
function frozen(config: OwnedVm['config']): boolean {
  return String(config.freeze ?? '0') === '1';
}
