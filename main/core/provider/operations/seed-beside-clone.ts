/**
 * Issue 11: a fresh create uploads its seed while its clone waits for a copy
 * slot and copies, not after. The upload does not need the VM: its bytes
 * depend on the name, the user-data and the mark's created-at, all known
 * before the clone (seed-source.ts), and nothing references the ISO until the
 * configure step attaches it. Beside the clone, the upload's task ends while
 * the clone's still runs, so one task listing sees both, and a create that
 * waits for a storage's clone slot sends useful requests instead of idling:
 * in a bulk the node's request budget (pace.ts), not the disk, was what the
 * creates waited on (scripts/bench-bulk.ts).
 *
 * Nothing is lost by the early upload. Until the configure step the seed is
 * referenced by nothing, and every attempt (a rerun, Resume) uploads it again
 * over any old copy. A create that fails after the upload leaves the seed as
 * one that fails at configure always did: its step list says the seed is
 * there, so the task offers Clean up for it (services/tasks/offers.ts
 * leftBehindOf), and the orphan-seed view lists it.
 */
import type { ClusterResource, CoreContext, VmConfig } from '../calls/context';
import { allocate, type OwnedVm } from '../cluster/ownership';
import type { CreateRequest } from '../cluster/placement';
import type { ProgressReporter } from '../calls/progress';
import { buildProxySeed } from '../cluster/seed-source';
import { runTaskStep } from '../calls/task-step';
import type { Companion } from '../calls/task-watcher';
import { staticMacOf } from '../rules/net0';

export interface SeedAt {
  node: string;
  vmid: number;
}

/** One seed upload running beside a clone. */
export interface SeedBesideClone {
  /** Resolves when the upload task ended OK, rejects with its error (always observed: never an unhandled rejection). */
  done: Promise<void>;
  /** The upload's error once it failed: the clone beside it is then cancelled, and this is the create's error. */
  failure(): { error: unknown } | undefined;
}

/** Starts the upload of `request`'s seed to `at.node`, dated by the mark in `description`. */
export function startSeedBesideClone(
  ctx: CoreContext,
  at: SeedAt,
  request: CreateRequest,
  description: string,
  report: ProgressReporter,
  signal: AbortSignal | undefined,
  clone?: Companion,
): SeedBesideClone {
  let failed: { error: unknown } | undefined;
  const done = uploadSeed(ctx, at, request, { description }, report, signal, clone);
  done.catch((error: unknown) => (failed = { error }));
  return { done, failure: () => failed };
}

/**
 * Step 5: the seed, rebuilt and uploaded over any old one (a previous attempt may have been cut off). Beside a
 * clone (`clone`), the upload's end is needed only with the clone's: it is looked at with the clone's looks.
 */
export async function uploadSeed(
  ctx: CoreContext,
  at: SeedAt,
  request: CreateRequest,
  stampConfig: VmConfig,
  report: ProgressReporter,
  signal?: AbortSignal,
  clone?: Companion,
): Promise<void> {
  const { isoStorage } = ctx.profile;
  const submit = () => {
    // Dated with the mark's created-at (seed-source.ts), so a migrate can rebuild the same bytes on another node.
    const network = { network: request.network, mac: staticMacOf(request.uid, request.network) };
    const iso = buildProxySeed(ctx, request.name, { userData: request.cloudInit, ...network }, stampConfig);
    return ctx.api.uploadIso(at.node, isoStorage, ctx.seed.seedIsoName(request.name), iso, { signal });
  };
  await runTaskStep(ctx, report, { step: 'upload-seed', at, submit, budgetMs: ctx.budgets.uploadMs, signal, beside: clone });
}

/**
 * A create's clone at `vmid`; calls `beside` once the clone's POST is queued or its copy slot is not free at once,
 * and gives `task` its clone task's UPID (the seed's upload is looked at with that task's looks).
 */
export type CloneWithSeed = (vmid: number, signal: AbortSignal | undefined, beside: () => void, task: Companion) => Promise<OwnedVm>;

/**
 * allocate (ownership.ts) with the seed's upload beside the clone: started with the first VMID tried, kept across
 * the probes, and joined before the clone counts as done. A failed upload cancels the clone (if it has not been
 * sent, none is) and is the create's error; a failed clone lets the upload end, as the step list then says.
 */
export async function allocateWithSeed(
  ctx: CoreContext,
  what: { resources: readonly ClusterResource[]; request: CreateRequest; description: string; node: string },
  clone: CloneWithSeed,
  report: ProgressReporter,
  signal?: AbortSignal,
): Promise<{ vm: OwnedVm; adopted: boolean; seed: SeedBesideClone | undefined }> {
  const { request } = what;
  let seed: SeedBesideClone | undefined;
  const cloneTask: Companion = {};
  const cloneCut = new AbortController();
  const cloneSignal = signal ? AbortSignal.any([signal, cloneCut.signal]) : cloneCut.signal;
  try {
    const { vm, adopted } = await allocate(
      ctx,
      what.resources,
      request,
      async (vmid) => {
        const startSeed = () => {
          if (seed) return;
          seed = startSeedBesideClone(ctx, { node: what.node, vmid }, request, what.description, report, signal, cloneTask);
          seed.done.catch(() => cloneCut.abort()); // a failed upload cancels the clone beside it
        };
        try {
          const vm = await clone(vmid, cloneSignal, startSeed, cloneTask);
          startSeed(); // every clone that posted called it already; this keeps `seed` defined for the join
          await seed!.done;
          return vm;
        } catch (e) {
          // The upload failed first (the clone was cancelled because of it): the upload's reason is the create's.
          const failedSeed = (seed as SeedBesideClone | undefined)?.failure();
          if (failedSeed) throw failedSeed.error;
          throw e; // the upload goes on: a probe of the next VMID keeps it
        }
      },
      signal,
    );
    return { vm, adopted, seed };
  } catch (e) {
    // The create ends with its upload, so no step reports after the operation has failed.
    await (seed as SeedBesideClone | undefined)?.done.catch(() => undefined);
    throw e;
  }
}
