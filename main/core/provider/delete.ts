/**
 * Delete (spec entry 11), under the per-name lock: stop the VM when it is
 * ours, delete its seed, then destroy it. The seed goes before the destroy:
 * once the VM is gone nothing calls Delete again, so a seed left by a later
 * failure would never be deleted (review finding CR1). Everything already
 * gone is success.
 */
import { isConfigMissing } from '../pve/errors';
import type { CallOptions, CoreContext } from './context';
import { toProviderError } from './classify';
import { transient } from './errors';
import { parseProviderId } from './ids';
import { parseMark } from './mark';
import { progressReporter, type ProgressReporter } from './progress';
import { resolveVm } from './resources';
import { LOCK_SUSPENDED, waitTask } from './tasks';

export async function deleteVm(ctx: CoreContext, id: string, options: CallOptions = {}): Promise<void> {
  const { signal } = options;
  const report = progressReporter('delete', options.onProgress);
  try {
    const { vmid, name } = parseProviderId(id);
    const release = await ctx.locks.acquire(name, signal);
    try {
      const node = await destroyIfOurs(ctx, vmid, name, report, signal);
      if (node === undefined) await deleteSeedEverywhere(ctx, name, report, signal);
      ctx.log.info('proxmox vm deleted', { id, destroyed: node !== undefined });
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError('delete', e, id);
  }
}

/** Steps 2 to 7. Resolves to the node of the VM it destroyed, or undefined when there was no VM of ours. */
async function destroyIfOurs(ctx: CoreContext, vmid: number, name: string, report: ProgressReporter, signal?: AbortSignal) {
  report('lookup', 'started', { vmid });
  const r = await resolveVm(ctx, vmid, { signal });
  if (!r) return gone(ctx, vmid, report, 'already gone');
  if (r.lock && r.lock !== LOCK_SUSPENDED) throw transient(`VM ${vmid} is locked (${r.lock})`);
  if (r.status === 'unknown' || !r.node) {
    throw transient(`VM ${vmid} has status unknown: its node ${r.node ?? '?'} is not answering, or the VM is too new to be reported yet`);
  }
  const node = r.node;
  let config: Record<string, string>;
  try {
    config = await ctx.api.vmConfig(node, vmid, { signal });
  } catch (e) {
    if (isConfigMissing(e)) return gone(ctx, vmid, report, 'already gone');
    throw e;
  }
  if (config.name !== name) return gone(ctx, vmid, report, 'not ours (another name), left alone');
  if (!parseMark(config.description).managed) return gone(ctx, vmid, report, 'carries no mark, left alone');
  // Hibernated is destroyed like stopped: the destroy takes its state volume too (Phase 10).
  if (config.lock && config.lock !== LOCK_SUSPENDED) throw transient(`VM ${vmid} is locked (${config.lock})`);
  const at = { node, vmid };
  report('lookup', 'done', at);

  // The listing shows a paused VM as running; stop ends it too.
  if (r.status !== 'stopped') {
    await runVmTask(ctx, 'stop', at, () => ctx.api.stop(node, vmid, { signal }), ctx.budgets.stopMs, report, signal);
  } else {
    report('stop', 'skipped', at);
  }
  await deleteSeed(ctx, node, name, report, signal);
  await runVmTask(ctx, 'destroy', at, () => ctx.api.destroy(node, vmid, { signal }), ctx.budgets.destroyMs, report, signal);
  return node;
}

function gone(ctx: CoreContext, vmid: number, report: ProgressReporter, why: string): undefined {
  ctx.log.info(`proxmox vm ${why}`, { vmid });
  report('lookup', 'done', { vmid });
  report('stop', 'skipped', { vmid });
  return undefined;
}

/** A VM that is gone by the time its task is submitted is success: it is what the task was for. */
async function runVmTask(
  ctx: CoreContext,
  step: 'stop' | 'destroy',
  at: { node: string; vmid: number },
  submit: () => Promise<string>,
  budgetMs: number,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<void> {
  report(step, 'started', at);
  let upid: string;
  try {
    upid = await submit();
  } catch (e) {
    if (!isConfigMissing(e)) throw e;
    report(step, 'done', at);
    return;
  }
  report(step, 'task', { ...at, upid });
  await waitTask(ctx, upid, budgetMs, signal);
  report(step, 'done', at);
}

/** Step 6 on one node. A missing volume still ends in a successful task (F13), so nothing is matched. */
async function deleteSeed(ctx: CoreContext, node: string, name: string, report: ProgressReporter, signal?: AbortSignal): Promise<void> {
  const volid = ctx.seed.seedVolumeId(ctx.profile.isoStorage, name);
  report('delete-seed', 'started', { node });
  const upid = await ctx.api.deleteVolume(node, ctx.profile.isoStorage, volid, { signal });
  report('delete-seed', 'task', { node, upid });
  await waitTask(ctx, upid, ctx.budgets.seedDeleteMs, signal);
  report('delete-seed', 'done', { node });
}

/**
 * Step 6 when the VM's node is unknown: every node in profile order. A node
 * that fails is logged and skipped, so one that is down cannot hold the
 * delete up; a cancel fails the call, and so does a permanent refusal (a 403
 * every node would give), which would otherwise leave the seed unseen.
 */
async function deleteSeedEverywhere(ctx: CoreContext, name: string, report: ProgressReporter, signal?: AbortSignal): Promise<void> {
  for (const node of ctx.profile.nodes) {
    try {
      await deleteSeed(ctx, node, name, report, signal);
    } catch (e) {
      if (signal?.aborted || toProviderError('delete', e).kind === 'permanent') throw e;
      ctx.log.info('proxmox seed delete failed on a node, skipped', { node, reason: toProviderError('delete', e).message });
    }
  }
  report('destroy', 'skipped', {});
}
