/**
 * The task kinds of the template builder (issue 14): `build-template` runs the
 * core's buildTemplate like a create runs provider.create (every write step
 * journalled before its request, the Proxmox task log followed, cancel, Resume
 * from what the journal recorded), then runs the doctor's verdict on the
 * template and adds it to the profile's catalogue; `clean-up-build` removes
 * what an interrupted, cancelled or failed build left (cleanupTemplateBuild:
 * only a VM carrying the build's id, and the image only when the build
 * downloaded it).
 */
import type { BuildRequestRecord, BuildResumeRecord, BuiltTemplateResult } from '../../../../shared/channels/templates';
import { type BuildBudgets, type BuildProgressEvent, buildSteps, buildTemplate, type BuildTemplateRequest, cleanupTemplateBuild, type Leftover, type ProgressEvent, type PveApi, type TemplateBuildApi, TemplateBuildError } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { Cluster } from '../../clusters/cluster';
import { templateVerdict } from '../../doctor/template-verdicts';
import type { RunContext, Runner } from './run-context';
import type { BuildTemplateTaskInput, CleanUpBuildInput, TaskRecord } from '../records/task-record';

/** The build's steps, then adding the template to the profile's catalogue. */
export const CATALOGUE_STEP = 'catalogue';
export const buildTemplateSteps: readonly string[] = [...buildSteps, CATALOGUE_STEP];
export const cleanUpBuildSteps: readonly string[] = ['clean up'];

/** Where a built template lands: the profile's catalogue (the profile service in the app; a fake in tests). */
export interface TemplateCatalogue {
  add(clusterId: string, key: string, node: string, vmid: number): Promise<{ catalogue: BuiltTemplateResult['catalogue']; note?: string }>;
}

export interface TemplateBuildDeps {
  catalogue?: TemplateCatalogue;
  budgets?: Partial<BuildBudgets>;
}

type BuildApi = PveApi & TemplateBuildApi;

export function buildApiOf(cluster: Cluster): BuildApi {
  const api = cluster.api as Partial<BuildApi>;
  if (typeof api.downloadUrl !== 'function' || typeof api.createVm !== 'function' || typeof api.nextVmid !== 'function')
    throw new AppError('permanent', `The connection to ${cluster.name} cannot build templates.`, 'Update Egress Desk.');
  return cluster.api as BuildApi;
}

export function toBuildRequest(r: BuildRequestRecord): BuildTemplateRequest {
  return { ...r };
}

/** The resume points a progress event adds (as the core's tests journal them). */
export function resumeAfter(r: BuildResumeRecord, ev: BuildProgressEvent): BuildResumeRecord {
  const next = { ...r };
  if (ev.vmid !== undefined) next.vmid = ev.vmid;
  if (ev.volid) next.volid = ev.volid;
  if (ev.step === 'download' && ev.phase === 'started' && ev.fresh) next.downloadedByUs = true;
  // The image's delete ran: it is no longer the build's to delete.
  if (ev.step === 'cleanup-image' && ev.phase === 'done') next.downloadedByUs = false;
  if (ev.phase === 'task' && ev.upid) {
    if (ev.step === 'download') next.downloadUpid = ev.upid;
    if (ev.step === 'create-vm') next.createUpid = ev.upid;
    if (ev.step === 'convert') next.templateUpid = ev.upid;
  }
  return next;
}

const same = (a: BuildResumeRecord, b: BuildResumeRecord) => JSON.stringify(a) === JSON.stringify(b);

export function leftoverWords(l: Leftover): string {
  return l.kind === 'vm' ? `VM ${l.vmid} on ${l.node} (${l.reason})` : `the image ${l.volid} on ${l.node} (${l.reason})`;
}

function inputOf(ctx: RunContext): BuildTemplateTaskInput {
  const input = ctx.current().input;
  if (input.kind !== 'build-template') throw new Error('build-template runner given another kind');
  return input;
}

/** Journals the fields, then the step change (which follows a Proxmox task's log). Both fsync'd before the request goes out. */
function progressOf(ctx: RunContext, resume: { value: BuildResumeRecord }) {
  return (ev: BuildProgressEvent) => {
    const next = resumeAfter(resume.value, ev);
    if (!same(next, resume.value)) {
      resume.value = next;
      ctx.update({ input: { ...inputOf(ctx), resume: next } });
    }
    ctx.onProgress(ev);
  };
}

function stepEvent(step: string, phase: ProgressEvent['phase'], node?: string): ProgressEvent {
  return { op: 'build-template', step, index: 0, total: 0, phase, ...(node ? { node } : {}) };
}

export function buildTemplateRunner(deps: TemplateBuildDeps = {}): Runner {
  return async (ctx) => {
    const input = inputOf(ctx);
    const api = buildApiOf(ctx.cluster);
    const resume = { value: { ...(input.resume ?? {}) } };
    let built;
    try {
      built = await buildTemplate(
        { api, log: ctx.log, ...(deps.budgets ? { budgets: deps.budgets } : {}) },
        toBuildRequest(input.request),
        { signal: ctx.signal, onProgress: progressOf(ctx, resume), resume: resume.value },
      );
    } catch (e) {
      if (e instanceof TemplateBuildError && !ctx.signal.aborted) {
        const leftovers = e.leftovers.map(leftoverWords);
        try {
          ctx.update({ input: { ...inputOf(ctx), leftovers } });
        } catch {
          // the journal cannot record it: the failure itself is still told
        }
        // On a release too old for the API path, the hint carries root's commands.
        if (e.preflight?.shell && e.preflight.path === 'shell')
          throw new AppError(
            'permanent',
            e.message,
            `Run these commands as root on ${e.preflight.node}, then Verify:\n${e.preflight.shell}`,
          );
      }
      throw e;
    }

    // The doctor's verdict (the rules create applies before every clone), then the catalogue.
    ctx.onProgress(stepEvent(CATALOGUE_STEP, 'started', built.node));
    const profile = ctx.cluster.profile;
    const disk = Math.max(0, ...Object.values(profile.machineTypes).map((m) => m.diskGiB ?? 0));
    const verdict = templateVerdict(built.vmid, built.node, built.config, {
      ...(profile.bridge ? { bridge: profile.bridge } : {}),
      ...(profile.vlanTag !== undefined ? { vlanTag: profile.vlanTag } : {}),
      ...(disk > 0 ? { diskGiB: disk } : {}),
    });
    const base = {
      catalogueKey: built.catalogueKey,
      node: built.node,
      vmid: built.vmid,
      name: built.name,
      verdict,
      imageKept: built.imageKept,
    };
    if (!verdict.suitable) {
      ctx.update({ template: { ...base, catalogue: 'not-saved', catalogueNote: 'the doctor found it unsuitable' } });
      throw new AppError(
        'permanent',
        `Template ${built.vmid} was built but the doctor finds it unsuitable: ${verdict.problems.map((p) => p.message).join('; ')}`,
        verdict.problems.map((p) => p.fix).join('\n'),
      );
    }
    const saved = deps.catalogue
      ? await deps.catalogue.add(ctx.cluster.id, built.catalogueKey, built.node, built.vmid)
      : { catalogue: 'not-saved' as const, note: 'no catalogue to add it to' };
    const template: BuiltTemplateResult = { ...base, catalogue: saved.catalogue, ...(saved.note ? { catalogueNote: saved.note } : {}) };
    ctx.update({ template });
    ctx.onProgress(stepEvent(CATALOGUE_STEP, saved.catalogue === 'not-saved' ? 'skipped' : 'done', built.node));
    const where = `VMID ${built.vmid} on ${built.node}`;
    const catalogue =
      saved.catalogue === 'added'
        ? `added to the catalogue as "${built.catalogueKey}"`
        : saved.catalogue === 'per-node'
          ? `added to the catalogue as ${built.node}'s template of "${built.catalogueKey}"`
          : saved.catalogue === 'unchanged'
            ? `already in the catalogue as "${built.catalogueKey}"`
            : `not added to the catalogue: ${saved.note ?? ''}`;
    return `Template ${built.name} (${where}) is built and Suitable; ${catalogue}.${built.imageKept ? ' The image is kept.' : ''}`;
  };
}

/** The Clean up task of a build, from the build's journal. */
export function cleanUpBuildInput(task: TaskRecord): CleanUpBuildInput {
  const input = task.input;
  if (input.kind !== 'build-template') throw new Error('not a template build');
  return { kind: 'clean-up-build', ofTaskId: task.id, request: input.request, resume: input.resume ?? {} };
}

export function cleanUpBuildRunner(deps: TemplateBuildDeps = {}): Runner {
  return async (ctx) => {
    const input = ctx.task.input;
    if (input.kind !== 'clean-up-build') throw new Error('clean-up-build runner given another kind');
    const api = buildApiOf(ctx.cluster);
    ctx.onProgress(stepEvent('clean up', 'started', input.request.node));
    const left = await cleanupTemplateBuild(
      { api, log: ctx.log, ...(deps.budgets ? { budgets: deps.budgets } : {}) },
      toBuildRequest(input.request),
      input.resume,
      ctx.signal,
    );
    ctx.onProgress(stepEvent('clean up', 'done', input.request.node));
    const r = input.resume;
    const tried = [
      ...(r.vmid !== undefined ? [`VM ${r.vmid} (only if it carries this build's id)`] : []),
      ...(r.downloadedByUs && r.volid ? [`the image ${r.volid}`] : []),
    ];
    if (left.length > 0) return `Cleaned up what could be: still in Proxmox: ${left.map(leftoverWords).join('; ')}.`;
    if (tried.length === 0) return 'Nothing was left behind: the build stopped before it made anything, so nothing was deleted.';
    return `Cleaned up: ${tried.join(' and ')} ${tried.length > 1 ? 'are' : 'is'} gone.`;
  };
}
