/**
 * One VM's recreate (issue 16): the core's recreate (core/provider/operations/recreate.ts:
 * the delete's steps, then the create's) under the proxy name's lock. The
 * old VM is deleted only while it carries the old UID; the new one gets the
 * new UID chosen when the task was asked for, so a Resume after the delete
 * half finds the old VM gone (or the new one begun) and creates (or adopts)
 * it: nothing is made twice. A failure in the create half says that the old
 * VM is gone and the new one not made yet, so the state is never a puzzle.
 */
import { formatProviderId, parseMark, readConfigs, recreatePhaseOf, type RecreateStep } from '../../../core';
import { AppError, toAppErrorValue } from '../../../errors/app-error';
import { withName, type RunContext, type Runner } from './run-context';

export const recreateProxy: Runner = async (ctx) => {
  const input = ctx.current().input;
  if (input.kind !== 'recreate-proxy') throw new Error('recreate runner given another kind');
  // Dropped only after the core's recreate returned: a run cut off after that finds the new VM made.
  if (input.sealedCloudInit === undefined) {
    if (await madeAlready(ctx, input.name, input.newUid)) return `${input.name} is recreated (an earlier run finished it).`;
    throw new AppError(
      'permanent',
      'The user-data of this recreate is no longer kept, so it cannot run again.',
      'Recreate the proxy again as a new task.',
    );
  }
  const cloudInit = await ctx.openCloudInit();
  const oldId = formatProviderId(input.vmid, input.name);
  let half = 'delete' as 'delete' | 'create';
  try {
    const r = await withName(ctx, input.name, () =>
      ctx.cluster.provider.recreate(
        oldId,
        {
          uid: input.newUid,
          name: input.name,
          placement: { ...(input.node ? { zone: input.node } : {}), machineType: input.machineType, image: input.template },
          cloudInit,
          // Issue 24: the same bridge, VLAN and static address as the proxy it replaces.
          ...(input.network ? { network: input.network } : {}),
        },
        {
          signal: ctx.signal,
          expect: { uid: input.uid },
          cloneGate: ctx.cloneGate,
          onProgress: (e) => {
            if (e.phase === 'started' || e.phase === 'skipped') half = recreatePhaseOf(e.step as RecreateStep);
            ctx.onProgress(e);
          },
        },
      ),
    );
    // Issue 24: the old VM's credentials go with it; the new one's were made when its seed was built.
    ctx.credentials?.forget(input.uid);
    const done = ctx.current().input;
    if (done.kind === 'recreate-proxy') ctx.update({ input: { ...done, sealedCloudInit: undefined } });
    return `${input.name} is ${r.message} (the old VM ${input.vmid} is deleted).`;
  } catch (e) {
    const error = toAppErrorValue(e);
    if (half !== 'create' || !error || ctx.signal.aborted) throw e;
    throw new AppError(
      error.kind,
      `${input.name}: the old VM ${input.vmid} is deleted, the new one is not made yet. ${error.message}`,
      `${error.hint} Then Retry creates it with the same name, template, machine type and user-data.`,
      error.field,
    );
  }
};

/** A VM with the name whose mark carries the recreate's new UID. */
async function madeAlready(ctx: RunContext, name: string, uid: string): Promise<boolean> {
  const named = (await ctx.cluster.api.clusterResources('vm', { signal: ctx.signal })).filter(
    (r) => r.type === 'qemu' && r.name === name && r.node,
  );
  const reads = await readConfigs(ctx.cluster.api, named, ctx.signal);
  return reads.some((r) => !('error' in r) && parseMark(r.config.description).uid === uid);
}
