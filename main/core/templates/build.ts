/**
 * Build a proxy template from a cloud image over the API (issue 14):
 *
 *   preflight → download (download-url, content import) → create-vm (POST /nodes/{node}/qemu
 *   with scsi0 import-from) → convert (POST …/template) → verify (the core's template rules)
 *   → cleanup-image (unless keepImage)
 *
 * Every step reports `started` before its first write request and `task` with
 * the UPID as soon as Proxmox answers, so the task manager can journal both
 * (a listener that throws stops the build there, as for create). Every step
 * first looks at what is already there, so a rerun after a crash at any point
 * converges on one template: the image is reused (and, with a checksum,
 * verified by the node without a second download: pve-common
 * download_file_from_url's existing-file branch), the VM is found by the build
 * id in its description, a running task is waited on rather than repeated.
 *
 * A failure (not a cancellation) cleans up: a half-built VM is destroyed when
 * its description carries this build's id and it sits at the VMID the build
 * used, else it is returned as a leftover with the reason; the image is deleted
 * unless kept. Proxmox itself leaves nothing after a failed download (the
 * temporary file is unlinked) or a failed create (the qmcreate worker frees the
 * volumes and the config). A cancellation leaves everything for a resume; the
 * runner's "Clean up" calls cleanupTemplateBuild.
 */
import type { Logger } from '../../log/logger';
import type { PveApi } from '../pve/api';
import type { TemplateBuildApi } from '../pve/build-api';
import { TaskFailedError } from '../pve/failures';
import { parseUpid, taskSucceeded } from '../pve/upid';
import { toProviderError } from '../provider/classify';
import { ProviderError, permanent, transient } from '../provider/errors';
import { cancelled, pollUntil, type PollSchedule } from '../provider/poll';
import { templateProblems } from '../provider/template';
import type { VmConfig } from '../pve/schemas';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import { preflight, type BuildPreflight, type BuildTemplateRequest } from './preflight';
import { buildIdOf, createParams } from './recipe';

export const buildSteps = ['preflight', 'download', 'create-vm', 'convert', 'verify', 'cleanup-image'] as const;
export type BuildStep = (typeof buildSteps)[number];

export interface BuildProgressEvent {
  op: 'build-template';
  step: BuildStep;
  index: number;
  total: number;
  phase: 'started' | 'task' | 'skipped' | 'done';
  node?: string;
  vmid?: number;
  upid?: string;
  /** `<storage>:import/<file>`. */
  volid?: string;
  /**
   * On `started` of download and create-vm: the request about to go out makes a new
   * object (the image was not there; the VM did not exist). The runner journals it so a
   * resume or a cleanup knows the object is the build's own (BuildResume).
   */
  fresh?: boolean;
  /** A short word on why a step was skipped or how it ended (`reused`, `verified`, `kept`). */
  note?: string;
}

export type BuildProgressListener = (event: BuildProgressEvent) => void;

export interface BuildBudgets extends PollSchedule {
  downloadMs: number;
  createMs: number;
  templateMs: number;
  destroyMs: number;
  deleteImageMs: number;
}

export const defaultBuildBudgets: Readonly<BuildBudgets> = Object.freeze({
  // A 600 MB image over a slow link, and the import of its disk onto slow storage.
  downloadMs: 60 * 60_000,
  createMs: 30 * 60_000,
  templateMs: 10 * 60_000,
  destroyMs: 5 * 60_000,
  deleteImageMs: 2 * 60_000,
  youngPollMs: 250,
  youngForMs: 5_000,
  oldPollMs: 1_000,
});

export interface BuildContext {
  api: PveApi & TemplateBuildApi;
  log: Logger;
  budgets?: Partial<BuildBudgets>;
  now?: () => Date;
}

/** What the runner journaled from earlier attempts (each from a progress event). */
export interface BuildResume {
  vmid?: number;
  downloadUpid?: string;
  createUpid?: string;
  templateUpid?: string;
  /** A download of a file that was not there was started: the image is the build's to delete. */
  downloadedByUs?: boolean;
  /** `<storage>:import/<file>` from the download step's events. */
  volid?: string;
}

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

export interface Leftover {
  kind: 'vm' | 'image';
  node: string;
  vmid?: number;
  volid?: string;
  reason: string;
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

const providerKinds = new Set(['permanent', 'transient', 'not-found']);

function reporter(listener: BuildProgressListener | undefined) {
  let failure: ProviderError | undefined;
  return (
    step: BuildStep,
    phase: BuildProgressEvent['phase'],
    context: Omit<BuildProgressEvent, 'op' | 'step' | 'index' | 'total' | 'phase'> = {},
  ) => {
    if (failure) throw failure;
    if (!listener) return;
    try {
      listener({ op: 'build-template', step, index: buildSteps.indexOf(step) + 1, total: buildSteps.length, phase, ...context });
    } catch (e) {
      const r = (typeof e === 'object' && e !== null ? e : {}) as { kind?: unknown; message?: unknown; hint?: unknown };
      failure =
        e instanceof ProviderError
          ? e
          : typeof r.kind === 'string' && providerKinds.has(r.kind) && typeof r.message === 'string'
            ? new ProviderError(
                r.kind as ProviderError['kind'],
                r.message,
                undefined,
                undefined,
                typeof r.hint === 'string' ? r.hint : undefined,
              )
            : transient(`progress could not be recorded: ${e instanceof Error ? e.message : String(e)}`);
      throw failure;
    }
  };
}

type Reporter = ReturnType<typeof reporter>;

interface Run {
  ctx: BuildContext;
  budgets: BuildBudgets;
  request: BuildTemplateRequest;
  signal: AbortSignal | undefined;
  report: Reporter;
  node: string;
  name: string;
  vmid?: number;
  volid?: string;
  importStorage?: string;
  downloadedByUs: boolean;
  /** The VM at `vmid` carries this build's id (made by this build now or before). */
  vmIsOurs: boolean;
}

async function waitTask(run: Run, upid: string, budgetMs: number): Promise<void> {
  const { node } = parseUpid(upid);
  const exitstatus = await pollUntil({ schedule: run.budgets, budgetMs, what: `task ${upid}`, signal: run.signal }, async () => {
    const status = await run.ctx.api.taskStatus(node, upid, { signal: run.signal, loop: true });
    return status.status === 'stopped' ? (status.exitstatus ?? '') : undefined;
  });
  if (!taskSucceeded(exitstatus)) throw new TaskFailedError(upid, exitstatus);
}

/** A journaled task of an earlier attempt: waited on until it ends; its outcome is read from the state afterwards. */
async function settle(run: Run, upid: string | undefined, budgetMs: number): Promise<void> {
  if (!upid) return;
  try {
    await waitTask(run, upid, budgetMs);
  } catch (e) {
    if (run.signal?.aborted) throw e;
    run.ctx.log.info('template build: an earlier task did not succeed; the state decides', { upid, error: String(e) });
  }
}

/** A download task still running from an earlier attempt (no journaled UPID): the node's active task list, when the client has it. */
async function runningDownload(run: Run, fileName: string): Promise<string | undefined> {
  if (!run.ctx.api.nodeTasks) return undefined;
  try {
    const tasks = await run.ctx.api.nodeTasks(run.node, { source: 'active', typefilter: 'download' }, { signal: run.signal });
    return tasks.find((t) => t.type === 'download' && t.id === fileName)?.upid;
  } catch {
    return undefined;
  }
}

/** The build's own VM: at the journaled or asked VMID, or by name, recognised by the build id in its description. */
async function findOwnVm(run: Run, name: string, loop = false): Promise<{ node: string; vmid: number; config: VmConfig } | undefined> {
  const resources = await run.ctx.api.clusterResources('vm', { signal: run.signal, loop });
  const candidates = resources.filter((r) => r.vmid !== undefined && r.node && (r.vmid === run.vmid || r.name === name));
  for (const r of candidates) {
    const config = await run.ctx.api.vmConfig(r.node!, r.vmid!, { signal: run.signal, loop }).catch(() => undefined);
    if (config && buildIdOf(config.description) === run.request.buildId) return { node: r.node!, vmid: r.vmid!, config };
  }
  return undefined;
}

function downloadFailure(exitstatus: string, request: BuildTemplateRequest, storage: string, volid: string): ProviderError {
  const c = request.image.kind === 'catalogue' ? catalogueImage(request.image.id) : undefined;
  if (/checksum mismatch: .*, aborting$/.test(exitstatus))
    return permanent(
      `A different file named like the image is already on ${storage}: ${exitstatus}`,
      `Delete it (\`pvesm free ${volid}\` on the node) and build again, or check the checksum you pasted.`,
    );
  if (/^checksum mismatch/.test(exitstatus))
    return permanent(
      `The downloaded image does not match the checksum: ${exitstatus}`,
      c
        ? `Paste the ${c.checksum.algorithm} value of "${c.checksum.listEntry}" from ${c.checksum.listUrl} again: "latest" images change with each point release. Nothing was kept.`
        : 'Check the checksum and its algorithm against the publisher. Nothing was kept.',
    );
  if (/No space left on device/.test(exitstatus))
    return permanent(
      `Storage ${storage} is full: ${exitstatus}`,
      `Free space on ${storage} or pick another import storage. Nothing was kept.`,
    );
  if (/refusing to override existing file/.test(exitstatus))
    return permanent(exitstatus, `Build with the image's checksum (Proxmox then checks the file it has), or delete ${volid}.`);
  if (/^download failed/.test(exitstatus))
    return permanent(
      `The node could not download the image: ${exitstatus}`,
      "The download runs on the Proxmox node, not on this computer: check the URL, the node's DNS and internet access, and the HTTP proxy in Datacenter → Options. Nothing was kept.",
    );
  return transient(`The image download failed: ${exitstatus}`);
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
    ctx,
    budgets: { ...defaultBuildBudgets, ...ctx.budgets },
    request,
    signal: options.signal,
    report: reporter(options.onProgress),
    node: request.node,
    name: request.name ?? `${request.image.kind === 'catalogue' ? request.image.id : 'custom'}-template`,
    ...(resume.vmid !== undefined ? { vmid: resume.vmid } : request.vmid !== undefined ? { vmid: request.vmid } : {}),
    downloadedByUs: resume.downloadedByUs ?? false,
    vmIsOurs: false,
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

    // ---- download
    const image = pf.image;
    if (!(own?.config.template === '1')) await download(run, pf, resume);
    else run.report('download', 'skipped', { node: run.node, volid: run.volid, note: 'template already built' });

    // ---- create-vm
    let config = await ensureVm(run, pf, resume, own);

    // ---- convert
    if (String(config.template) === '1') run.report('convert', 'skipped', { node: run.node, vmid: run.vmid });
    else {
      run.report('convert', 'started', { node: run.node, vmid: run.vmid });
      await settle(run, resume.templateUpid, run.budgets.templateMs);
      config = await ctx.api.vmConfig(run.node, run.vmid, { signal: run.signal });
      if (String(config.template) !== '1') {
        const upid = await ctx.api.convertToTemplate(run.node, run.vmid, { signal: run.signal });
        run.report('convert', 'task', { node: run.node, vmid: run.vmid, upid });
        await waitTask(run, upid, run.budgets.templateMs);
      }
      run.report('convert', 'done', { node: run.node, vmid: run.vmid });
    }

    // ---- verify: the rules create applies before every clone
    run.report('verify', 'started', { node: run.node, vmid: run.vmid });
    config = await ctx.api.vmConfig(run.node, run.vmid, { signal: run.signal });
    const problems = templateProblems(run.vmid, config, {
      bridge: request.bridge,
      ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
    });
    if (problems.length > 0)
      throw permanent(`The built template ${run.vmid} is not suitable: ${problems.map((p) => p.message).join('; ')}`);
    run.report('verify', 'done', { node: run.node, vmid: run.vmid });

    // ---- cleanup-image
    const deleteImage = !request.keepImage && run.downloadedByUs;
    if (deleteImage) {
      run.report('cleanup-image', 'started', { node: run.node, volid: run.volid });
      await deleteImageVolume(run);
      run.report('cleanup-image', 'done', { node: run.node, volid: run.volid });
    } else run.report('cleanup-image', 'skipped', { node: run.node, volid: run.volid, note: 'kept' });

    ctx.log.info('template built', { node: run.node, vmid: run.vmid, image: image.id });
    return {
      node: run.node,
      vmid: run.vmid,
      name: config.name ?? pf.name,
      config,
      catalogueKey: image.id === 'custom' ? pf.name.replace(/-template$/, '') : image.id,
      imageVolid: run.volid,
      imageKept: !deleteImage,
      downloaded: run.downloadedByUs,
    };
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

async function download(run: Run, pf: BuildPreflight, resume: BuildResume): Promise<void> {
  const { ctx, request } = run;
  const storage = run.importStorage!;
  const volid = run.volid!;
  const fileName = pf.image.fileName;
  await settle(run, resume.downloadUpid ?? (await runningDownload(run, fileName)), run.budgets.downloadMs);
  const listing = await ctx.api.storageContent(run.node, storage, 'import', { signal: run.signal });
  const existing = listing.find((v) => v.volid === volid);
  if (existing && !request.checksum) {
    run.report('download', 'skipped', { node: run.node, volid, note: 'reused (same name, not verified: no checksum)' });
    return;
  }
  run.report('download', 'started', { node: run.node, volid, fresh: !existing });
  if (!existing) run.downloadedByUs = true;
  const upid = await ctx.api.downloadUrl(
    run.node,
    storage,
    {
      url: pf.image.url,
      filename: fileName,
      content: 'import',
      ...(request.checksum ? { checksum: request.checksum.value.toLowerCase(), 'checksum-algorithm': request.checksum.algorithm } : {}),
      ...(request.verifyCertificates === false ? { 'verify-certificates': 0 as const } : {}),
    },
    { signal: run.signal },
  );
  run.report('download', 'task', { node: run.node, volid, upid });
  try {
    await waitTask(run, upid, run.budgets.downloadMs);
  } catch (e) {
    if (e instanceof TaskFailedError) {
      // Proxmox unlinks its temporary file (nothing was written); an existing file that failed its check is not the build's.
      run.downloadedByUs = false;
      throw downloadFailure(e.exitstatus, request, storage, volid);
    }
    throw e;
  }
  run.report('download', 'done', { node: run.node, volid, note: existing ? 'verified' : 'downloaded' });
}

async function ensureVm(
  run: Run,
  pf: BuildPreflight,
  resume: BuildResume,
  own: { node: string; config: VmConfig } | undefined,
): Promise<VmConfig> {
  const vmid = run.vmid!;
  if (own) {
    run.node = own.node;
    let config = own.config;
    if (config.lock) {
      // An earlier create is still running: wait for it to end (its VM then has its disk, or is gone).
      run.report('create-vm', 'started', { node: run.node, vmid, fresh: false });
      await settle(run, resume.createUpid, run.budgets.createMs);
      const after = await pollUntil(
        { schedule: run.budgets, budgetMs: run.budgets.createMs, what: `the earlier create of VM ${vmid}`, signal: run.signal },
        async () => {
          const again = await findOwnVm(run, pf.name, true);
          return again === undefined ? null : again.config.lock ? undefined : again;
        },
      );
      if (after === null) return createVm(run, pf);
      config = after.config;
    }
    if (config.scsi0 && !config.scsi0.includes('import-from')) {
      run.report('create-vm', 'skipped', { node: run.node, vmid, note: 'created by an earlier attempt' });
      return config;
    }
    throw permanent(`VM ${vmid} of this build has no imported disk on scsi0`, `Destroy it (\`qm destroy ${vmid}\`) and build again.`);
  }
  return createVm(run, pf);
}

async function createVm(run: Run, pf: BuildPreflight): Promise<VmConfig> {
  const { ctx, request } = run;
  const vmid = run.vmid!;
  run.report('create-vm', 'started', { node: run.node, vmid, fresh: true });
  const params = createParams({
    vmid,
    name: pf.name,
    buildId: request.buildId,
    imageLabel: pf.image.label,
    imageUrl: pf.image.url,
    importFrom: run.volid!,
    targetStorage: request.targetStorage,
    bridge: request.bridge,
    ...(request.vlanTag !== undefined ? { vlanTag: request.vlanTag } : {}),
    cores: request.cores ?? 2,
    memoryMiB: request.memoryMiB ?? 2048,
    builtAt: (ctx.now ?? (() => new Date()))(),
  });
  const upid = await ctx.api.createVm(run.node, params, { signal: run.signal });
  run.vmIsOurs = true;
  run.report('create-vm', 'task', { node: run.node, vmid, upid });
  await waitTask(run, upid, run.budgets.createMs);
  const config = await ctx.api.vmConfig(run.node, vmid, { signal: run.signal });
  run.report('create-vm', 'done', { node: run.node, vmid });
  return config;
}

async function deleteImageVolume(run: Run): Promise<void> {
  const upid = await run.ctx.api.deleteVolume(run.node, run.importStorage!, run.volid!, { signal: run.signal });
  run.report('cleanup-image', 'task', { node: run.node, volid: run.volid, upid });
  await waitTask(run, upid, run.budgets.deleteImageMs);
  run.downloadedByUs = false;
}

/** What a stopped build leaves: its VM (if any) and its image (if downloaded), without touching them. */
async function describeLeftovers(run: Run): Promise<Leftover[]> {
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
async function cleanupRun(run: Run): Promise<Leftover[]> {
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
          await waitTask(r, upid, r.budgets.destroyMs);
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
    ctx,
    budgets: { ...defaultBuildBudgets, ...ctx.budgets },
    request,
    signal,
    report: () => undefined,
    node: request.node,
    name: request.name ?? `${request.image.kind === 'catalogue' ? request.image.id : 'custom'}-template`,
    ...(resume.vmid !== undefined ? { vmid: resume.vmid } : {}),
    downloadedByUs: resume.downloadedByUs ?? false,
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
