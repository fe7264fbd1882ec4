/**
 * Build a proxy template from a cloud image over the API (issue 14):
 *
 *   preflight → download (download-url, content import) → create-vm (POST /nodes/{node}/qemu
 *   with scsi0 import-from) → convert (POST …/template) → verify (the core's template rules)
 *   → cleanup-image (unless keepImage)
 *
 * Every step reports `started` before its first write request and `task` with
 * the UPID as soon as Proxmox answers, so the task manager can journal both
 * (a listener that throws stops the build there, as for create): each task
 * runs as the provider's do (provider/calls/task-step.ts), waited on through the
 * client's task watcher. Every step first looks at what is already there, so
 * a rerun after a crash at any point converges on one template: the image is
 * reused or verified (build-image.ts), the VM is found by the build id in its
 * description (build-vm.ts), a running task is waited on rather than repeated.
 *
 * A failure (not a cancellation) cleans up (build-cleanup.ts). Proxmox itself
 * leaves nothing after a failed download (the temporary file is unlinked) or
 * a failed create (the qmcreate worker frees the volumes and the config). A
 * cancellation leaves everything for a resume; the runner's "Clean up" calls
 * cleanupTemplateBuild.
 */
import { TaskFailedError } from '../pve/failures';
import type { VmConfig } from '../pve/schemas';
import { toProviderError } from '../provider/rules/classify';
import { ProviderError, permanent } from '../provider/rules/errors';
import { templateProblems } from '../provider/cluster/template';
import { cleanupRun, describeLeftovers, type Leftover } from './build-cleanup';
import { deleteImageVolume, download } from './build-image';
import { findOwnVm, newRun, type BuildContext, type BuildProgressListener, type BuildResume, type Run } from './build-run';
import { convert, ensureVm } from './build-vm';
import { preflight, type BuildPreflight, type BuildTemplateRequest } from './preflight';

export {
  buildSteps,
  defaultBuildBudgets,
  type BuildBudgets,
  type BuildContext,
  type BuildProgressEvent,
  type BuildProgressListener,
  type BuildResume,
  type BuildStep,
} from './build-run';
export { cleanupTemplateBuild, type Leftover } from './build-cleanup';

export interface BuildOptions {
  signal?: AbortSignal;
  onProgress?: BuildProgressListener;
  resume?: BuildResume;
}

export interface BuiltTemplate {
  node: string;
  vmid: number;
  name: string;
  /** The template's config as Proxmox answers it; the core's template rules found nothing wrong with it. */
  config: VmConfig;
  /** The key to add it under in the profile's `templates`. */
  catalogueKey: string;
  imageVolid: string;
  /** The image stayed on the storage (keepImage, or it was there before the build). */
  imageKept: boolean;
  /** The image was downloaded by this build (false: reused). */
  downloaded: boolean;
}

export class TemplateBuildError extends ProviderError {
  constructor(
    base: ProviderError,
    readonly leftovers: Leftover[],
    readonly preflight?: BuildPreflight,
  ) {
    super(base.kind, base.message, undefined, undefined, base.hint);
  }
}

function classify(e: unknown): ProviderError {
  if (e instanceof ProviderError) return e;
  const base = toProviderError('create', e);
  const kind = e instanceof TaskFailedError ? 'permanent' : base.kind;
  return new ProviderError(kind, base.message, undefined, undefined, base.hint);
}

export async function buildTemplate(ctx: BuildContext, request: BuildTemplateRequest, options: BuildOptions = {}): Promise<BuiltTemplate> {
  const resume = options.resume ?? {};
  const run: Run = {
    ...newRun(ctx, request, resume, options.signal, options.onProgress),
    ...(resume.vmid !== undefined ? { vmid: resume.vmid } : request.vmid !== undefined ? { vmid: request.vmid } : {}),
  };
  let pf: BuildPreflight | undefined;
  try {
    // ---- preflight (reads only)
    run.report('preflight', 'started', { node: run.node });
    const own = await findOwnVm(run, run.name);
    if (own) {
      run.vmid = own.vmid;
      run.vmIsOurs = true;
    }
    pf = await preflight(ctx.api, { ...request, ...(run.vmid !== undefined ? { vmid: run.vmid } : {}) }, run.signal);
    if (pf.path === 'shell') {
      throw permanent(
        `Proxmox VE ${pf.release ?? '(unknown)'} on ${run.node} cannot build a template over the API: ${pf.reason ?? ''}.`,
        'Run the commands shown (root on the node) instead; nothing was sent to the cluster.',
      );
    }
    // A resumed build's own image and VM are not blockers.
    const blockers = pf.blockers.filter((b) => !(run.vmIsOurs && b.code === 'vmid-taken'));
    if (blockers.length > 0)
      throw permanent(
        blockers.map((b) => b.message).join(' '),
        blockers
          .map((b) => b.fix)
          .filter(Boolean)
          .join('\n') || undefined,
      );
    run.vmid = pf.vmid;
    run.importStorage = pf.importStorage!;
    run.volid = `${pf.importStorage}:import/${pf.image.fileName}`;
    run.report('preflight', 'done', { node: run.node, vmid: run.vmid, volid: run.volid });
    return await afterPreflight(run, pf, resume, own);
  } catch (e) {
    const error = classify(e);
    if (options.signal?.aborted || (error.kind === 'transient' && /progress could not be recorded/.test(error.message))) {
      // Cancelled or unrecordable: everything stays for a resume or the runner's clean-up.
      throw new TemplateBuildError(error, await describeLeftovers(run), pf);
    }
    const leftovers = await cleanupRun(run);
    throw new TemplateBuildError(error, leftovers, pf);
  }
}

/** download → create-vm → convert → verify → cleanup-image, once the preflight passed. */
async function afterPreflight(
  run: Run,
  pf: BuildPreflight,
  resume: BuildResume,
  own: { node: string; vmid: number; config: VmConfig } | undefined,
): Promise<BuiltTemplate> {
  const { ctx, request } = run;
  const vmid = run.vmid!;
  const volid = run.volid!;
  if (!(own?.config.template === '1')) await download(run, pf, resume);
  else run.report('download', 'skipped', { node: run.node, volid, note: 'template already built' });

  await convert(run, resume, await ensureVm(run, pf, resume, own));

  // ---- verify: the rules create applies before every clone
  run.report('verify', 'started', { node: run.node, vmid });
  const config = await ctx.api.vmConfig(run.node, vmid, { signal: run.signal });
  const problems = templateProblems(vmid, config, {
    bridge: request.bridge,
    ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
  });
  if (problems.length > 0) throw permanent(`The built template ${vmid} is not suitable: ${problems.map((p) => p.message).join('; ')}`);
  run.report('verify', 'done', { node: run.node, vmid });

  // ---- cleanup-image
  const deleteImage = !request.keepImage && run.downloadedByUs;
  if (deleteImage) {
    run.report('cleanup-image', 'started', { node: run.node, volid });
    await deleteImageVolume(run);
    run.report('cleanup-image', 'done', { node: run.node, volid });
  } else run.report('cleanup-image', 'skipped', { node: run.node, volid, note: 'kept' });

  ctx.log.info('template built', { node: run.node, vmid, image: pf.image.id });
  return {
    node: run.node,
    vmid,
    name: config.name ?? pf.name,
    config,
    catalogueKey: pf.image.id === 'custom' ? pf.name.replace(/-template$/, '') : pf.image.id,
    imageVolid: volid,
    imageKept: !deleteImage,
    downloaded: run.downloadedByUs,
  };
}
