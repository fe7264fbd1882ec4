/**
 * Recreate a broken proxy (issue 16): delete its VM, then create it again
 * with the same name, template, machine type and user-data under a new UID
 * (so a new VMID and a new mark), as one operation with both halves.
 *
 * The two halves are the core's own delete (delete.ts: identity checked
 * before the stop and again before the destroy, seed deleted first) and
 * create (create.ts: adopt or clone, seed, config, resize, start). Each takes
 * the per-name lock for its half; the task manager runs one operation per
 * proxy at a time, so nothing of ours slips in between.
 *
 * The state between the halves is visible in Proxmox, so a rerun (Resume)
 * with the same input converges: when a VM with the name already carries
 * the new UID in its mark, the delete half is done and skipped; when the old
 * VM is gone, the delete finds it "already gone" (and its seed is deleted
 * wherever no VM uses it); the create adopts whatever an earlier attempt
 * cloned. A failure between the halves leaves "deleted, not yet created":
 * the progress events name the step (`recreatePhaseOf`), so the task can say
 * so and offer Resume.
 */
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { invalidInput, permanent } from '../rules/errors';
import { create } from './create';
import { deleteVm, type DeleteReport } from './delete';
import { parseProviderId } from '../rules/ids';
import { parseMark } from '../rules/mark';
import type { CreateRequest } from '../cluster/placement';
import { progressReporter, type ProgressEvent, type RecreateStep } from '../calls/progress';
import { findVm, isTemplate } from '../cluster/resources';

export interface RecreateOptions extends CallOptions {
  /**
   * The old VM's UID as the caller saw it: the delete refuses a VM at the old VMID with another mark, and a request
   * whose new UID is this one is refused before any request (invalid-input). Without it, the old VM's mark is read:
   * one carrying the new UID is refused the same way.
   */
  expect?: { uid: string };
}

export interface RecreateResult {
  /** The new VM's provider ID. */
  id: string;
  oldId: string;
  /** What the delete half did; undefined when an earlier attempt had finished it. */
  deleted?: DeleteReport;
  message: string;
}

/** Which half a recreate step belongs to: a failure in `create` means the old VM is gone and Resume creates the new one. */
export function recreatePhaseOf(step: RecreateStep): 'delete' | 'create' {
  return step === 'lookup' || step === 'stop' || step === 'delete-seed' || step === 'destroy' ? 'delete' : 'create';
}

/**
 * Steps (progress.ts recreateSteps): lookup, stop, delete-seed, destroy (the delete half), then clone, migrate,
 * upload-seed, configure, resize, start, wait-running (the create half). `request` carries the NEW uid and the old
 * VM's name, image, machine type and user-data; its zone defaults to the old VM's node (pass it on a Resume, when the
 * old VM may be gone). Resumable states: old VM present (delete from the start), old VM gone (create), a VM with the
 * name and the new UID (create adopts it).
 */
export async function recreate(
  ctx: CoreContext,
  oldId: string,
  request: CreateRequest,
  options: RecreateOptions = {},
): Promise<RecreateResult> {
  const { signal } = options;
  const report = progressReporter('recreate', options.onProgress);
  try {
    const { vmid, name } = parseProviderId(oldId);
    if (request.name !== name) throw permanent(`a recreate keeps the name: ${request.name} is not ${name}`);
    // Issue 25: given the old VM's own UID, the "new one" below is the old VM itself: it was adopted, nothing written.
    if (options.expect && options.expect.uid === request.uid) throw sameUid(name, vmid, request.uid);
    const resources = await ctx.api.clusterResources('vm', { signal });
    const old = findVm(resources, vmid);
    if (!options.expect && old?.node && old.name === name && (await markUid(ctx, old.node, vmid, signal)) === request.uid)
      throw sameUid(name, vmid, request.uid);
    const zone = request.placement.zone ?? old?.node;
    const req: CreateRequest = { ...request, placement: { ...request.placement, ...(zone ? { zone } : {}) } };
    const forward = (e: ProgressEvent) =>
      report(e.step as RecreateStep, e.phase, {
        ...(e.node ? { node: e.node } : {}),
        ...(e.vmid !== undefined ? { vmid: e.vmid } : {}),
        ...(e.upid ? { upid: e.upid } : {}),
      });

    let deleted: DeleteReport | undefined;
    if (await newOneExists(ctx, resources, name, request.uid, signal)) {
      for (const step of ['lookup', 'stop', 'delete-seed', 'destroy'] as const) report(step, 'skipped');
    } else {
      await deleteVm(ctx, oldId, {
        signal,
        ...(options.expect ? { expect: options.expect } : {}),
        onMismatch: 'refuse',
        onProgress: forward,
        onReport: (r) => (deleted = r),
      });
    }
    // The create's own lookup reads only; the recreate's lookup step is the delete's.
    const newId = await create(ctx, req, {
      signal,
      cloneGate: options.cloneGate,
      onProgress: (e) => {
        if (e.step !== 'lookup') forward(e);
      },
    });
    ctx.log.info('proxmox vm recreated', { oldId, id: newId });
    return { id: newId, oldId, ...(deleted ? { deleted } : {}), message: `recreated as ${newId}` };
  } catch (e) {
    throw toProviderError('recreate', e, oldId);
  }
}

function sameUid(name: string, vmid: number, uid: string) {
  return invalidInput(
    `a recreate needs a new UID: ${uid} is the one VM ${vmid} (${name}) already carries, so nothing was deleted or created`,
    'Give the recreate a new UID (the app picks a fresh one each time); if an earlier recreate made this VM, it is done.',
  );
}

async function markUid(ctx: CoreContext, node: string, vmid: number, signal?: AbortSignal): Promise<string | undefined> {
  const config = await ctx.api.vmConfig(node, vmid, { signal }).catch(() => undefined);
  return config ? parseMark(config.description).uid : undefined;
}

/** A VM with the name whose mark carries the new UID: an earlier attempt's create half already began. */
async function newOneExists(
  ctx: CoreContext,
  resources: Awaited<ReturnType<CoreContext['api']['clusterResources']>>,
  name: string,
  uid: string,
  signal?: AbortSignal,
): Promise<boolean> {
  for (const r of resources.filter((x) => x.type === 'qemu' && !isTemplate(x) && x.name === name && x.node && x.vmid !== undefined)) {
    const config = await ctx.api.vmConfig(r.node!, r.vmid!, { signal }).catch(() => undefined);
    if (config && parseMark(config.description).uid === uid) return true;
  }
  return false;
}
