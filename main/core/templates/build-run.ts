/**
 * What every step of a template build shares: its steps and their events,
 * its budgets, and the run's state (the node, the VMID, the image, what the
 * build made), with the waits and the look for the build's own VM that the
 * build and its clean-up both use.
 */
import type { Logger } from '../../log/logger';
import type { PveApi } from '../pve/api';
import type { TemplateBuildApi } from '../pve/build-api';
import type { VmConfig } from '../pve/schemas';
import type { PollSchedule } from '../provider/calls/poll';
import { stepReporter, type ProgressEvent, type ProgressListener, type StepReporter } from '../provider/calls/progress';
import { waitTask, type TaskContext } from '../provider/calls/tasks';
import type { BuildTemplateRequest } from './preflight';
import { buildIdOf } from './recipe';

export const buildSteps = ['preflight', 'download', 'create-vm', 'convert', 'verify', 'cleanup-image'] as const;
export type BuildStep = (typeof buildSteps)[number];

/** A build's progress: the one event type, over the build's steps (`volid`, `fresh` and `note` are its fields). */
export type BuildProgressEvent = ProgressEvent<BuildStep>;
export type BuildProgressListener = ProgressListener<BuildStep>;

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

export interface Run {
  ctx: BuildContext;
  budgets: BuildBudgets;
  /** The build's tasks are waited on through the client's task watcher, as the provider's are. */
  tasks: TaskContext;
  request: BuildTemplateRequest;
  signal: AbortSignal | undefined;
  report: StepReporter<BuildStep>;
  node: string;
  name: string;
  vmid?: number;
  volid?: string;
  importStorage?: string;
  downloadedByUs: boolean;
  /** The VM at `vmid` carries this build's id (made by this build now or before). */
  vmIsOurs: boolean;
}

/** A run of `request`, reporting to `listener` (a clean-up has none), resumed from what `resume` journaled. */
export function newRun(
  ctx: BuildContext,
  request: BuildTemplateRequest,
  resume: BuildResume,
  signal: AbortSignal | undefined,
  listener?: BuildProgressListener,
): Run {
  const budgets = { ...defaultBuildBudgets, ...ctx.budgets };
  return {
    ctx,
    budgets,
    tasks: { api: ctx.api, log: ctx.log, budgets },
    request,
    signal,
    report: stepReporter('build-template', buildSteps, listener),
    node: request.node,
    name: request.name ?? `${request.image.kind === 'catalogue' ? request.image.id : 'custom'}-template`,
    downloadedByUs: resume.downloadedByUs ?? false,
    vmIsOurs: false,
  };
}

/** A journaled task of an earlier attempt: waited on until it ends; its outcome is read from the state afterwards. */
export async function settle(run: Run, upid: string | undefined, budgetMs: number): Promise<void> {
  if (!upid) return;
  try {
    await waitTask(run.tasks, upid, budgetMs, run.signal);
  } catch (e) {
    if (run.signal?.aborted) throw e;
    run.ctx.log.info('template build: an earlier task did not succeed; the state decides', { upid, error: String(e) });
  }
}

/**
 * The build's own VM: at the journaled or asked VMID, or by name, recognised by the build id in its description.
 * `loop` when a wait repeats the look (an earlier create still running), so the node's pace bounds it.
 */
export async function findOwnVm(
  run: Run,
  name: string,
  loop = false,
): Promise<{ node: string; vmid: number; config: VmConfig } | undefined> {
  const resources = await run.ctx.api.clusterResources('vm', { signal: run.signal, loop });
  const candidates = resources.filter((r) => r.vmid !== undefined && r.node && (r.vmid === run.vmid || r.name === name));
  for (const r of candidates) {
    const config = await run.ctx.api.vmConfig(r.node!, r.vmid!, { signal: run.signal, loop }).catch(() => undefined);
    if (config && buildIdOf(config.description) === run.request.buildId) return { node: r.node!, vmid: r.vmid!, config };
  }
  return undefined;
}
