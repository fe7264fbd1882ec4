/**
 * The create runner: hands over to the core, which is idempotent by UID and
 * name, under the proxy name's lock, so the seed cleanup can never delete
 * under a running create. (The other kinds' runners are registered beside
 * it in task-kinds.ts, one file per kind.)
 */
import { parseProviderId } from '../../../core';
import { AppError } from '../../../errors/app-error';
import { withName, type Runner } from './run-context';

export const createProxy: Runner = async (ctx) => {
  const input = ctx.task.input;
  if (input.kind !== 'create-proxy') throw new Error('create runner given another kind');
  if (input.sealedCloudInit === undefined) {
    throw new AppError(
      'permanent',
      'The cloud-init text of this task is no longer kept, so it cannot run again.',
      'Create the proxy again as a new task.',
    );
  }
  const cloudInit = await ctx.openCloudInit();
  // Issue 11: the client paces a node only while creates overlap (pace.ts 'under-load'); this one counts until it ends.
  const end = ctx.cluster.api.beginOperation?.() ?? (() => {});
  const id = await withName(ctx, input.name, () =>
    ctx.cluster.provider.create(
      {
        uid: input.uid,
        name: input.name,
        placement: { zone: input.node, machineType: input.machineType, image: input.template },
        cloudInit,
        ...(input.network ? { network: input.network } : {}),
      },
      // The clone waits its turn for a copy slot of its storage (the task manager's clone gate).
      { signal: ctx.signal, onProgress: ctx.onProgress, cloneGate: ctx.cloneGate },
    ),
  ).finally(end);
  ctx.credentials?.noteVmid(input.uid, parseProviderId(id).vmid);
  // The proxy runs: nothing will need its cloud-init again, so the journal stops keeping it.
  ctx.update({ input: { ...input, sealedCloudInit: undefined } });
  return `${input.name} is running (${id}).`;
};
