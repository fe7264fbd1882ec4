/**
 * Create (spec entry 10): validate placement, then, under the per-name lock,
 * adopt the VM a previous attempt left or clone a new one, and carry it
 * through seed, config, resize and start until it runs. Resolves to the ID
 * `vms/<vmid>/<name>`.
 */
import type { CallOptions, ClusterResource, CoreContext } from './context';
import { toProviderError } from './classify';
import { formatProviderId } from './ids';
import { formatMark } from './mark';
import { adoptByName, allocate, nodeOf, type OwnedVm } from './ownership';
import { resolvePlacement, type CreateRequest, type Placement } from './placement';
import { createSteps, progressReporter, type ProgressReporter } from './progress';
import { provision } from './provision';
import { waitTask, waitUnlocked } from './tasks';
import { checkTemplate } from './template';

export async function create(ctx: CoreContext, request: CreateRequest, options: CallOptions = {}): Promise<string> {
  const { signal } = options;
  const report = progressReporter('create', options.onProgress);
  try {
    const placement = resolvePlacement(ctx.profile, request);
    ctx.log.debug('proxmox create resolved', { name: request.name, node: placement.node, cloudInitBytes: request.cloudInit.length });
    const release = await ctx.locks.acquire(request.name, signal);
    try {
      const vm = await ensureRunning(ctx, placement, request, report, signal);
      ctx.log.info('proxmox vm ensured running', { name: request.name, vmid: vm.vmid, node: vm.node });
      return formatProviderId(vm.vmid, request.name);
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError('create', e);
  }
}

async function ensureRunning(
  ctx: CoreContext,
  placement: Placement,
  request: CreateRequest,
  report: ProgressReporter,
  signal?: AbortSignal,
) {
  report('lookup', 'started');
  const resources = await ctx.api.clusterResources('vm', { signal });
  let vm = await adoptByName(ctx, resources, request, signal);
  let adopted = vm !== undefined;
  if (!vm) {
    // The template is checked only when a clone may be needed: an existing VM no longer depends on it.
    const source = await checkTemplate(ctx, resources, request.placement.image, placement, signal);
    report('lookup', 'done', { node: placement.node });
    ({ vm, adopted } = await allocate(
      ctx,
      resources,
      request,
      (vmid) => cloneOnto(ctx, source, vmid, placement, request, report, signal),
      signal,
    ));
  }
  if (adopted) {
    report('lookup', 'done', { node: vm.node, vmid: vm.vmid });
    report('clone', 'skipped', { node: vm.node, vmid: vm.vmid });
    const status = await ctx.api.vmStatus(vm.node, vm.vmid, { signal });
    ctx.log.info('proxmox vm adopted', { vmid: vm.vmid, status: status.status, qmpstatus: status.qmpstatus });
    if (status.status === 'running') {
      for (const step of createSteps.slice(2)) report(step, 'skipped', { node: vm.node, vmid: vm.vmid });
      return vm;
    }
  }
  await provision(ctx, vm, placement, request, report, signal);
  return vm;
}

/** Step 4: a full clone carrying the mark, so the VM is never unmarked (spec entry 8). */
async function cloneOnto(
  ctx: CoreContext,
  source: ClusterResource,
  vmid: number,
  placement: Placement,
  request: CreateRequest,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<OwnedVm> {
  const sourceNode = nodeOf(source);
  const { node } = placement;
  report('clone', 'started', { node, vmid });
  const upid = await ctx.api.clone(
    sourceNode,
    placement.templateVmid,
    {
      newid: vmid,
      name: request.name,
      description: formatMark(request.uid, ctx.now()),
      full: 1,
      ...(ctx.profile.storage ? { storage: ctx.profile.storage } : {}),
      ...(node !== sourceNode ? { target: node } : {}),
    },
    { signal },
  );
  report('clone', 'task', { node, vmid, upid });
  await waitTask(ctx, upid, ctx.budgets.cloneMs, signal);
  const config = await waitUnlocked(ctx, node, vmid, signal);
  report('clone', 'done', { node, vmid });
  return { node, vmid, config };
}
