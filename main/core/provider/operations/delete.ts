/**
 * Delete (spec entry 11), under the per-name lock: stop the VM when it is
 * ours, delete its seed, then destroy it. The seed goes before the destroy:
 * once the VM is gone nothing calls Delete again, so a seed left by a later
 * failure would never be deleted (review finding CR1). Everything already
 * gone is success.
 *
 * Every destructive request is preceded by a fresh check: the VM's identity
 * (name, mark and, when the caller knows it, the mark's UID) before the stop
 * and again before the destroy, and who uses the seed (ownership.ts) before
 * each seed delete. A seed another VM's drive names is never deleted.
 * A VM that is gone by the time its stop or destroy is submitted is success:
 * it is what the task was for (task-step.ts `doneAlready`).
 */
import { isConfigMissing } from '../../pve/errors';
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { permanent, transient } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { notTheOne, seedHolds, type Wanted } from '../cluster/ownership';
import { progressReporter, type ProgressReporter } from '../calls/progress';
import { resolveVm } from '../cluster/resources';
import { LOCK_SUSPENDED } from '../calls/tasks';
import { runTaskStep } from '../calls/task-step';

/** What a delete did: the VM it destroyed or why it touched none, and where the seed went or stayed. */
export interface DeleteReport {
  /** The VM destroyed; undefined when no VM of ours was there. */
  destroyed?: { node: string; vmid: number };
  /** Why no VM was destroyed, in plain words (already gone, or not the VM meant and left alone). */
  leftAlone?: string;
  /** The seed volume, `<isoStorage>:iso/<name>-seed.iso`. */
  seed: string;
  /** Nodes where the seed delete ran (a volume already missing still ends in a successful task, F13). */
  seedDeletedOn: string[];
  /** Nodes where the seed stays, each with the reason (a VM uses it, a VM could not be read, the node failed). */
  seedKept: { node: string; reason: string }[];
}

export interface DeleteOptions extends CallOptions {
  /**
   * What the caller saw at the ID when it asked: the UID in the mark of the VM
   * there, or `absent` when no VM was there. Without it, any marked VM with the
   * ID's name is ours (spec entry 11).
   */
  expect?: { uid: string } | 'absent';
  /**
   * A VM at the VMID that is not the one meant: `refuse` (the default with
   * `expect`) fails with a permanent error before any destructive request;
   * `leave-alone` (the default without) goes on as when the VM is gone.
   */
  onMismatch?: 'refuse' | 'leave-alone';
  /** Called once, when the delete succeeds. */
  onReport?: (report: DeleteReport) => void;
}

export async function deleteVm(ctx: CoreContext, id: string, options: DeleteOptions = {}): Promise<void> {
  const { signal } = options;
  const report = progressReporter('delete', options.onProgress);
  try {
    const { vmid, name } = parseProviderId(id);
    const release = await ctx.locks.acquire(name, signal);
    try {
      const out: DeleteReport = { seed: ctx.seed.seedVolumeId(ctx.profile.isoStorage, name), seedDeletedOn: [], seedKept: [] };
      await destroyIfOurs(ctx, vmid, name, options, out, report);
      if (!out.destroyed) await deleteSeedEverywhere(ctx, name, out, report, signal);
      ctx.log.info('proxmox vm deleted', { id, destroyed: out.destroyed !== undefined, seedKept: out.seedKept.length });
      options.onReport?.(out);
    } finally {
      release();
    }
  } catch (e) {
    throw toProviderError('delete', e, id);
  }
}

const REFUSED_HINT =
  'Egress Desk deletes a VM only when its VMID, name and mark all match the proxy asked for. Refresh the inventory and pick the proxy again.';

/** Why the VM (config just read) is not the one this delete means, or undefined when it is. */
function mismatch(vmid: number, config: Record<string, string>, name: string, options: DeleteOptions): string | undefined {
  if (options.expect === 'absent') {
    const what = config.name ? `named ${config.name}` : 'without a name';
    return `VM ${vmid} (${what}) appeared after this delete was asked for, when no VM was there`;
  }
  const want: Wanted = { name, ...(options.expect ? { uid: options.expect.uid } : {}) };
  return notTheOne(vmid, config, want);
}

/** Steps 2 to 7. Sets `out.destroyed` when it destroyed a VM of ours. */
async function destroyIfOurs(
  ctx: CoreContext,
  vmid: number,
  name: string,
  options: DeleteOptions,
  out: DeleteReport,
  report: ProgressReporter,
): Promise<void> {
  const { signal } = options;
  const refuse = (options.onMismatch ?? (options.expect ? 'refuse' : 'leave-alone')) === 'refuse';
  report('lookup', 'started', { vmid });
  const r = await resolveVm(ctx, vmid, { signal });
  if (!r) return gone(ctx, vmid, report, out, `No VM ${vmid} is left: it is already gone`);
  if (r.lock && r.lock !== LOCK_SUSPENDED) throw transient(`VM ${vmid} is locked (${r.lock})`);
  if (r.status === 'unknown' || !r.node) {
    throw transient(`VM ${vmid} has status unknown: its node ${r.node ?? '?'} is not answering, or the VM is too new to be reported yet`);
  }
  const node = r.node;
  let config: Record<string, string>;
  try {
    config = await ctx.api.vmConfig(node, vmid, { signal });
  } catch (e) {
    if (isConfigMissing(e)) return gone(ctx, vmid, report, out, `No VM ${vmid} is left: it is already gone`);
    throw e;
  }
  const notOurs = mismatch(vmid, config, name, options);
  if (notOurs) {
    if (refuse) throw permanent(`${notOurs}; nothing was stopped or deleted.`, REFUSED_HINT);
    return gone(ctx, vmid, report, out, `${notOurs}: left alone`);
  }
  // Hibernated is destroyed like stopped: the destroy takes its state volume too (Phase 10).
  if (config.lock && config.lock !== LOCK_SUSPENDED) throw transient(`VM ${vmid} is locked (${config.lock})`);
  const at = { node, vmid };
  report('lookup', 'done', at);

  // The listing shows a paused VM as running; stop ends it too.
  if (r.status !== 'stopped') {
    await runTaskStep(ctx, report, {
      step: 'stop',
      at,
      submit: () => ctx.api.stop(node, vmid, { signal }),
      budgetMs: ctx.budgets.stopMs,
      signal,
      doneAlready: isConfigMissing,
    });
  } else {
    report('stop', 'skipped', at);
  }
  await deleteSeedOfVm(ctx, node, vmid, name, out, report, signal);
  // Read again right before the destroy: the stop and the seed delete took time, and a VM that changed is not destroyed.
  const still = await configIfPresent(ctx, node, vmid, signal);
  if (still) {
    const changed = mismatch(vmid, still, name, options);
    if (changed) throw permanent(`${changed}; it changed during the delete, so it was not destroyed.`, REFUSED_HINT);
    const submit = () => ctx.api.destroy(node, vmid, { signal });
    await runTaskStep(ctx, report, { step: 'destroy', at, submit, budgetMs: ctx.budgets.destroyMs, signal, doneAlready: isConfigMissing });
  } else {
    report('destroy', 'skipped', at);
  }
  out.destroyed = at;
}

async function configIfPresent(ctx: CoreContext, node: string, vmid: number, signal?: AbortSignal) {
  try {
    return await ctx.api.vmConfig(node, vmid, { signal });
  } catch (e) {
    if (isConfigMissing(e)) return undefined;
    throw e;
  }
}

function gone(ctx: CoreContext, vmid: number, report: ProgressReporter, out: DeleteReport, why: string): void {
  ctx.log.info('proxmox vm not destroyed', { vmid, why });
  out.leftAlone = why;
  report('lookup', 'done', { vmid });
  report('stop', 'skipped', { vmid });
}

/**
 * Step 6 on one node (its `started` comes with the check of who uses the seed). A missing volume still ends in a
 * successful task (F13), so nothing is matched.
 */
async function deleteSeed(
  ctx: CoreContext,
  node: string,
  out: DeleteReport,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<void> {
  const submit = () => ctx.api.deleteVolume(node, ctx.profile.isoStorage, out.seed, { signal });
  await runTaskStep(ctx, report, {
    step: 'delete-seed',
    at: { node },
    submit,
    budgetMs: ctx.budgets.seedDeleteMs,
    signal,
    started: false,
    done: false,
  });
  out.seedDeletedOn.push(node);
  report('delete-seed', 'done', { node });
}

/**
 * Step 6 on the node of the VM being destroyed. A seed another VM uses stays
 * and the destroy goes on; when a VM on the node could not be read, the call
 * fails before the destroy, leaving the VM stopped for the next delete, as a
 * failed seed delete does.
 */
async function deleteSeedOfVm(
  ctx: CoreContext,
  node: string,
  vmid: number,
  name: string,
  out: DeleteReport,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<void> {
  report('delete-seed', 'started', { node });
  const hold = (await seedHolds(ctx.api, { volid: out.seed, name, nodes: [node], except: vmid, signal })).get(node);
  if (hold?.kind === 'unreadable') {
    throw transient(`${hold.reason} Its seed ${out.seed} was kept and VM ${vmid} was not destroyed.`);
  }
  if (hold) {
    ctx.log.info('proxmox seed kept: another vm uses it', { node, vmid, reason: hold.reason });
    out.seedKept.push({ node, reason: hold.reason });
    report('delete-seed', 'skipped', { node });
    return;
  }
  await deleteSeed(ctx, node, out, report, signal);
}

/**
 * Step 6 when the VM's node is unknown: every node in profile order, except
 * where a VM uses the seed or a VM on that node could not be read. A node
 * that fails is logged and skipped, so one that is down cannot hold the
 * delete up; a cancel fails the call, and so does a permanent refusal (a 403
 * every node would give), which would otherwise leave the seed unseen.
 */
async function deleteSeedEverywhere(
  ctx: CoreContext,
  name: string,
  out: DeleteReport,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<void> {
  const { nodes } = ctx.profile;
  report('delete-seed', 'started', {});
  const holds = await seedHolds(ctx.api, { volid: out.seed, name, nodes, signal });
  for (const node of nodes) {
    const hold = holds.get(node);
    if (hold) {
      ctx.log.info('proxmox seed kept on a node', { node, reason: hold.reason });
      out.seedKept.push({ node, reason: hold.reason });
      continue;
    }
    try {
      report('delete-seed', 'started', { node });
      await deleteSeed(ctx, node, out, report, signal);
    } catch (e) {
      if (signal?.aborted || toProviderError('delete', e).kind === 'permanent') throw e;
      const reason = toProviderError('delete', e).message;
      ctx.log.info('proxmox seed delete failed on a node, skipped', { node, reason });
      out.seedKept.push({ node, reason: `The seed delete failed on ${node}: ${reason}` });
    }
  }
  report('delete-seed', out.seedDeletedOn.length > 0 ? 'done' : 'skipped', {});
  report('destroy', 'skipped', {});
}
