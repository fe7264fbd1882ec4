/**
 * The work behind each task kind. Create and delete hand over to the core,
 * which is idempotent by UID and name; every runner holds the proxy name's
 * lock, so the seed cleanup can never delete under a running create.
 */
import { formatProviderId, vmidFor } from '../../core';
import { AppError } from '../../ipc/app-error';
import type { RunContext, Runner } from './run-context';

async function withName<T>(ctx: RunContext, name: string, work: () => Promise<T>): Promise<T> {
  const release = await ctx.names.lock(ctx.cluster.id, name, ctx.signal);
  try {
    return await work();
  } finally {
    release();
  }
}

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
  const id = await withName(ctx, input.name, () =>
    ctx.cluster.provider.create(
      {
        uid: input.uid,
        name: input.name,
        placement: { zone: input.node, machineType: input.machineType, image: input.template },
        cloudInit,
      },
      { signal: ctx.signal, onProgress: ctx.onProgress },
    ),
  );
  // The proxy runs: nothing will need its cloud-init again, so the journal stops keeping it.
  ctx.update({ input: { ...input, sealedCloudInit: undefined } });
  return `${input.name} is running (${id}).`;
};

export const deleteProxy: Runner = async (ctx) => {
  const input = ctx.task.input;
  if (input.kind !== 'delete-proxy') throw new Error('delete runner given another kind');
  const name = input.providerId.split('/')[2] ?? '';
  await withName(ctx, name, () => ctx.cluster.provider.delete(input.providerId, { signal: ctx.signal, onProgress: ctx.onProgress }));
  return `${name} and its seed are deleted.`;
};

/**
 * Deletes what a create left. Without a known VMID the VM is looked up by
 * name; with none found, the core's delete of an absent VM deletes the
 * seed on every node, which is what may be left.
 */
export const cleanUp: Runner = async (ctx) => {
  const input = ctx.task.input;
  if (input.kind !== 'clean-up') throw new Error('clean-up runner given another kind');
  await withName(ctx, input.name, async () => {
    let vmid = input.vmid;
    if (vmid === undefined) {
      const listed = await ctx.cluster.api.clusterResources('vm', { signal: ctx.signal });
      vmid = listed.find((r) => r.type === 'qemu' && r.name === input.name)?.vmid ?? vmidFor(input.uid, ctx.cluster.profile.vmidRange, 0);
    }
    await ctx.cluster.provider.delete(formatProviderId(vmid, input.name), { signal: ctx.signal, onProgress: ctx.onProgress });
  });
  return `Whatever the create of ${input.name} left (VM and seed) is deleted.`;
};

export type DoctorRun = (clusterId: string, signal: AbortSignal) => Promise<{ message: string }>;

export function doctorRunner(run: DoctorRun | undefined): Runner {
  return async (ctx) => {
    if (!run) {
      throw new AppError(
        'permanent',
        'The connect doctor is not available in this build.',
        'Update Egress Desk, or run the checks from the cluster settings.',
      );
    }
    return (await run(ctx.cluster.id, ctx.signal)).message;
  };
}
