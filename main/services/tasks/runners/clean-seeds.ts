/**
 * The seed delete, run as a task: for each selected seed, under its proxy
 * name's lock, a last re-check (still there, old enough, no task on the
 * name, no VM using it: read again now, not taken from the scan), then the
 * delete. Each seed ends in `deleted` or in `skipped` with the reason.
 */
import {
  defaultBudgets,
  isBudgetExhausted,
  runTaskStep,
  stepReporter,
  TaskFailedError,
  toProviderError,
  type StepReporter,
} from '../../../core';
import { AppError, toAppErrorValue } from '../../../errors/app-error';
import { ageReasonToKeep } from '../../cleanup/age';
import { seedHolds, seedName } from '../../cleanup/references';
import { ageOf, listSeeds } from '../../cleanup/scan';
import type { RunContext, Runner } from './run-context';

type Outcome = { node: string; volid: string; reason: string };

/** The task's one step (task-manager.ts). */
export const CLEAN_SEEDS_STEP = 're-check and delete';

/** The seed's delete task, as the provider budgets it (spec entry 18). */
const SEED_DELETE_MS = defaultBudgets.seedDeleteMs;

/**
 * The step's changes through the manager's progress path, with the core's reporter, as a create's: `started` marks it
 * running, `task` gives it the UPID of the seed's delete (so Cancel stops that Proxmox task and says so, and a watched
 * log is followed). Journalled before the request it announces; the progress fraction stays the runner's own.
 */
interface StepProgress {
  report: StepReporter<typeof CLEAN_SEEDS_STEP>;
  /** Set before a report: the fraction done that the task shows after it. */
  fraction: number;
}

function stepProgressOf(ctx: RunContext): StepProgress {
  const out: StepProgress = {
    fraction: 0,
    report: stepReporter('delete', [CLEAN_SEEDS_STEP], (e) => {
      ctx.onProgress(e);
      ctx.update({ progress: out.fraction });
    }),
  };
  return out;
}

export const cleanSeeds: Runner = async (ctx) => {
  const input = ctx.task.input;
  if (input.kind !== 'clean-seeds') throw new Error('clean-seeds runner given another kind');
  const deleted: Outcome[] = [];
  const skipped: Outcome[] = [];
  const steps = stepProgressOf(ctx);
  steps.report(CLEAN_SEEDS_STEP, 'started');
  for (const [i, seed] of input.seeds.entries()) {
    const progress = i / input.seeds.length;
    // Proxmox's failures end the task classified, with a hint, not as an internal error.
    const reason = await recheckAndDelete(ctx, seed.node, seed.volid, input, steps, progress).catch((e: unknown) => {
      throw toAppErrorValue(e) ? e : toProviderError('delete', e);
    });
    if (reason.deleted) deleted.push({ ...seed, reason: reason.text });
    else skipped.push({ ...seed, reason: reason.text });
    ctx.update({ seeds: { deleted, skipped }, progress: (i + 1) / input.seeds.length });
  }
  steps.fraction = 1;
  steps.report(CLEAN_SEEDS_STEP, 'done');
  const verb = input.dryRun ? 'would be deleted (dry run, nothing was deleted)' : 'deleted';
  return `${deleted.length} seed${deleted.length === 1 ? '' : 's'} ${verb}, ${skipped.length} skipped.`;
};

async function recheckAndDelete(
  ctx: RunContext,
  node: string,
  volid: string,
  { dryRun, graceMinutes }: { dryRun: boolean; graceMinutes: number },
  steps: StepProgress,
  progress: number,
): Promise<{ deleted: boolean; text: string }> {
  const { cluster, signal } = ctx;
  const { isoStorage } = cluster.profile;
  const name = seedName(isoStorage, volid);
  if (!name) return { deleted: false, text: `Not a seed on the ISO storage ${isoStorage}: only <name>-seed.iso files there are cleaned.` };
  if (!cluster.profile.nodes.includes(node)) return { deleted: false, text: `The node ${node} is not in this cluster's profile.` };
  const busyText = () => {
    const busy = ctx.names.busy(cluster.id, name, ctx.task.id);
    return busy ? `The task "${busy.target}" (${busy.state}) is working on ${name}.` : undefined;
  };
  // Asked before the lock too: a running create holds the name's lock until it ends.
  const before = busyText();
  if (before) return { deleted: false, text: before };
  const release = await ctx.names.lock(cluster.id, name, signal);
  try {
    const busy = busyText();
    if (busy) return { deleted: false, text: busy };
    const seed = (await listSeeds(cluster, node, signal)).find((s) => s.volid === volid);
    if (!seed) return { deleted: false, text: 'It is no longer on the storage.' };
    const young = ageReasonToKeep(ageOf(seed, new Date()), graceMinutes);
    if (young) return { deleted: false, text: young };
    const used = (await seedHolds(cluster.api, { volid, name, nodes: [node], signal })).get(node);
    if (used) return { deleted: false, text: used.reason };
    if (dryRun) return { deleted: true, text: 'Dry run: it would be deleted (no VM uses it, no task is on its name, old enough).' };
    // The step carries the UPID while the delete runs (and the task's list of Proxmox tasks keeps it).
    let upid = '';
    const submit = async () => (upid = await cluster.api.deleteVolume(node, isoStorage, volid, { signal }));
    const tasks = { api: cluster.api, log: ctx.log, budgets: defaultBudgets };
    steps.fraction = progress;
    await runTaskStep(tasks, steps.report, {
      step: CLEAN_SEEDS_STEP,
      at: { node },
      submit,
      budgetMs: SEED_DELETE_MS,
      signal,
      started: false,
      done: false,
    }).catch((e: unknown) => {
      throw inPlainWords(e, upid);
    });
    return { deleted: true, text: 'Deleted after a last check: no VM used it and no task was on its name.' };
  } finally {
    release();
  }
}

/** The delete task's failure or overrun, said for this task: which Proxmox task, and where to look. */
function inPlainWords(e: unknown, upid: string): unknown {
  if (e instanceof TaskFailedError)
    return new AppError(
      'transient',
      `The Proxmox task ${upid} failed: ${e.exitstatus || 'no exit status'}.`,
      'Open the task log on the node to see why.',
    );
  if (isBudgetExhausted(e))
    return new AppError(
      'transient',
      `The Proxmox task ${upid} is still running after ${Math.round(SEED_DELETE_MS / 1000)} s.`,
      'Check the task in the Proxmox UI.',
    );
  return e;
}
