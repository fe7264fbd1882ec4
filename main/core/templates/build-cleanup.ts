/**
 * What a build leaves, and its clean-up. After a failure (not a
 * cancellation) the half-built VM is destroyed when its description carries
 * this build's id and it sits at the VMID the build used, else it is
 * returned as a leftover with the reason; the image is deleted unless kept.
 * A cancelled or unrecordable build leaves everything for a resume, and the
 * runner's "Clean up" (cleanupTemplateBuild) applies the same rules later,
 * from what the journal recorded.
 */
import { cancelled } from '../provider/calls/poll';
import { waitTask } from '../provider/calls/tasks';
import { deleteImageVolume } from './build-image';
import { findOwnVm, newRun, settle, type BuildContext, type BuildResume, type Run } from './build-run';
import type { BuildTemplateRequest } from './preflight';
import { buildIdOf } from './recipe';

export interface Leftover {
  kind: 'vm' | 'image';
  node: string;
  vmid?: number;
  volid?: string;
  reason: string;
}

/** What a stopped build leaves: its VM (if any) and its image (if downloaded), without touching them. */
export async function describeLeftovers(run: Run): Promise<Leftover[]> {
  const out: Leftover[] = [];
  const signalFree: Run = { ...run, signal: undefined };
  const own = await findOwnVm(signalFree, run.name).catch(() => undefined);
  if (own && String(own.config.template) !== '1')
    out.push({
      kind: 'vm',
      node: own.node,
      vmid: own.vmid,
      reason: 'half-built (not converted to a template): resume the build or clean it up',
    });
  if (run.downloadedByUs && run.volid)
    out.push({ kind: 'image', node: run.node, volid: run.volid, reason: 'downloaded by this build: resume or clean up' });
  return out;
}

/** After a failure: destroy the half-built VM if it is provably ours, delete the image unless kept. What stays is returned. */
export async function cleanupRun(run: Run): Promise<Leftover[]> {
  // The clean-up must run even when the build's own signal is what stopped it mid-request.
  const r: Run = { ...run, signal: undefined, report: () => undefined };
  const leftovers: Leftover[] = [];
  if (run.vmid !== undefined && run.vmIsOurs) {
    try {
      const resources = await r.ctx.api.clusterResources('vm');
      const entry = resources.find((x) => x.vmid === run.vmid);
      if (entry?.node) {
        const config = await r.ctx.api.vmConfig(entry.node, run.vmid);
        if (buildIdOf(config.description) !== run.request.buildId)
          leftovers.push({
            kind: 'vm',
            node: entry.node,
            vmid: run.vmid,
            reason: `VM ${run.vmid} does not carry this build's id: left alone`,
          });
        else if (String(config.template) === '1')
          leftovers.push({ kind: 'vm', node: entry.node, vmid: run.vmid, reason: 'already a template: kept' });
        else {
          const upid = await r.ctx.api.destroy(entry.node, run.vmid);
          await waitTask(r.tasks, upid, r.budgets.destroyMs);
        }
      }
    } catch (e) {
      leftovers.push({
        kind: 'vm',
        node: run.node,
        vmid: run.vmid,
        reason: `could not be destroyed: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }
  if (run.volid && run.downloadedByUs) {
    if (run.request.keepImage) leftovers.push({ kind: 'image', node: run.node, volid: run.volid, reason: 'kept for a retry (keepImage)' });
    else {
      try {
        await deleteImageVolume(r);
      } catch (e) {
        leftovers.push({
          kind: 'image',
          node: run.node,
          volid: run.volid,
          reason: `could not be deleted: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
  }
  return leftovers;
}

/**
 * The runner's "Clean up" for an interrupted build: the same rules as after a
 * failure, from what the journal recorded. Resolves to what stays.
 */
export async function cleanupTemplateBuild(
  ctx: BuildContext,
  request: BuildTemplateRequest,
  resume: BuildResume,
  signal?: AbortSignal,
): Promise<Leftover[]> {
  const run: Run = {
    ...newRun(ctx, request, resume, signal),
    ...(resume.vmid !== undefined ? { vmid: resume.vmid } : {}),
    vmIsOurs: resume.vmid !== undefined,
  };
  // Let tasks of the interrupted attempt end first, so the state is final.
  await settle(run, resume.downloadUpid, run.budgets.downloadMs);
  await settle(run, resume.createUpid, run.budgets.createMs);
  await settle(run, resume.templateUpid, run.budgets.templateMs);
  if (resume.volid) {
    run.volid = resume.volid;
    run.importStorage = resume.volid.split(':')[0]!;
  }
  if (signal?.aborted) throw cancelled('the clean-up');
  return cleanupRun(run);
}
