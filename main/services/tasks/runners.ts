/**
 * The work behind each task kind. Create and delete hand over to the core,
 * which is idempotent by UID and name; every runner holds the proxy name's
 * lock, so the seed cleanup can never delete under a running create. Delete
 * and Clean up pass the core the identity they mean (the mark's UID), which
 * it checks right before each destructive request.
 */
import { formatProviderId, isProviderError, parseProviderId, POWER_CODES } from '../../core';
import type { DeleteOptions, DeleteReport } from '../../core/provider/delete';
import { parseMark } from '../../core/provider/mark';
import { notTheOne, readConfigs } from '../../core/provider/ownership';
import type { ClusterResource } from '../../core/pve/schemas';
import { AppError } from '../../ipc/app-error';
import type { Cluster } from '../clusters/cluster';
import { describeCleanUp, describeDelete } from './outcomes';
import type { RunContext, Runner } from './run-context';
import { isPowerInput, type DeleteProxyInput } from './task-record';

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
      // The clone waits its turn for a copy slot of its storage (the task manager's clone gate).
      { signal: ctx.signal, onProgress: ctx.onProgress, cloneGate: ctx.cloneGate },
    ),
  );
  // The proxy runs: nothing will need its cloud-init again, so the journal stops keeping it.
  ctx.update({ input: { ...input, sealedCloudInit: undefined } });
  return `${input.name} is running (${id}).`;
};

export const deleteProxy: Runner = async (ctx) => {
  const input = ctx.task.input;
  if (input.kind !== 'delete-proxy') throw new Error('delete runner given another kind');
  const { name } = parseProviderId(input.providerId);
  let report: DeleteReport | undefined;
  const options: DeleteOptions = {
    signal: ctx.signal,
    onProgress: ctx.onProgress,
    onReport: (r) => (report = r),
    // A journal from before the request recorded what it saw: the core's own rule (name and mark) still holds.
    ...(input.expect ? { expect: input.expect, onMismatch: 'refuse' as const } : {}),
  };
  await withName(ctx, name, () => ctx.cluster.provider.delete(input.providerId, options));
  return report ? describeDelete(name, report) : `${name} is deleted.`;
};

/** Issue 16: one VM's start, shutdown, stop or reboot; the core checks the name and the mark's UID right before its request. */
export const powerProxy: Runner = async (ctx) => {
  const input = ctx.current().input;
  if (!isPowerInput(input)) throw new Error('power runner given another kind');
  const op = input.kind.replace(/-proxy$/, '') as 'start' | 'shutdown' | 'stop' | 'reboot';
  if (input.timedOut) ctx.update({ input: { ...input, timedOut: undefined } });
  const id = formatProviderId(input.vmid, input.name);
  try {
    const r = await withName(ctx, input.name, () =>
      ctx.cluster.provider[op](id, {
        signal: ctx.signal,
        onProgress: ctx.onProgress,
        expect: { uid: input.uid },
        ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
      }),
    );
    return `${input.name} (VM ${r.vmid} on ${r.node}): ${r.message}.`;
  } catch (e) {
    // What offers Stop it and Wait longer (offers.ts): the guest ignored the shutdown request.
    if (isProviderError(e) && e.code === POWER_CODES.shutdownTimeout && !ctx.signal.aborted) {
      try {
        ctx.update({ input: { ...input, timedOut: true } });
      } catch {
        // the journal cannot record it: the failure itself is still told
      }
    }
    throw e;
  }
};

/** The words of a refusal: what was not done, and what Egress Desk does only when the identity agrees. */
export interface IdentityWords {
  /** "Nothing was deleted." */
  nothing: string;
  /** "deletes" */
  acts: string;
}
const deleteWords: IdentityWords = { nothing: 'Nothing was deleted.', acts: 'deletes' };

/**
 * What a delete request means, read now, before any task exists: for each
 * ID, the UID in the mark of the VM at its VMID (`absent` when there is no
 * VM). A VM there that is not the proxy named (another name, no mark) is
 * refused, the whole request with it, and nothing is sent.
 */
export async function expectationsForDelete(
  cluster: Cluster,
  ids: { id: string; vmid: number; name: string }[],
  listed: readonly ClusterResource[],
  words: IdentityWords = deleteWords,
): Promise<NonNullable<DeleteProxyInput['expect']>[]> {
  const present = ids.map((p) => listed.find((r) => r.vmid === p.vmid && r.type === 'qemu' && r.node !== undefined));
  const reads = await readConfigs(
    cluster.api,
    present.filter((r): r is ClusterResource => r !== undefined),
  );
  const refusals: string[] = [];
  const expectations = ids.map((p, i): NonNullable<DeleteProxyInput['expect']> => {
    if (!present[i]) return 'absent';
    const read = reads.find((r) => r.vm === present[i])!;
    if ('error' in read) {
      throw new AppError(
        'transient',
        `The config of VM ${p.vmid} could not be read (${read.error}), so Egress Desk cannot tell it is ${p.name}; ${words.nothing.charAt(0).toLowerCase()}${words.nothing.slice(1, -1)}.`,
        'Try again when its node answers.',
      );
    }
    const why = notTheOne(p.vmid, read.config, { name: p.name });
    if (why) refusals.push(why);
    return { uid: parseMark(read.config.description).uid };
  });
  if (refusals.length > 0) {
    throw new AppError(
      'invalid-input',
      `${refusals.join('; ')}. ${words.nothing}`,
      `Egress Desk ${words.acts} a VM only when its VMID, name and mark all match the proxy picked. Refresh the inventory and pick the proxy again.`,
      'ids',
    );
  }
  return expectations;
}

/**
 * Deletes what a create left, and only that: a VM whose mark carries the
 * create's own UID (at the VMID it worked on, or found by name), and the
 * seed where no VM uses it. A VM with the name but another UID, or none, is
 * someone else's and left alone. A create that never had a VMID made
 * nothing, so nothing is deleted.
 */
export const cleanUp: Runner = async (ctx) => {
  const input = ctx.task.input;
  if (input.kind !== 'clean-up') throw new Error('clean-up runner given another kind');
  const { uid, name } = input;
  const reports: DeleteReport[] = [];
  const leftAlone: string[] = [];
  await withName(ctx, name, async () => {
    const { api, provider } = ctx.cluster;
    const listed = await api.clusterResources('vm', { signal: ctx.signal });
    const named = listed.filter((r) => r.type === 'qemu' && !r.template && r.name === name && r.node && r.vmid !== input.vmid);
    const ours: number[] = [];
    for (const read of await readConfigs(api, named, ctx.signal)) {
      if ('error' in read) {
        throw new AppError(
          'transient',
          `The config of VM ${read.vm.vmid} (${name}) could not be read (${read.error}), so Clean up cannot tell whether this create made it; nothing was deleted.`,
          'Try Clean up again when its node answers.',
        );
      }
      const why = notTheOne(read.vm.vmid!, read.config, { name, uid });
      if (why) leftAlone.push(why);
      else ours.push(read.vm.vmid!);
    }
    const options = (onMismatch: 'refuse' | 'leave-alone'): DeleteOptions => ({
      signal: ctx.signal,
      onProgress: ctx.onProgress,
      expect: { uid },
      onMismatch,
      onReport: (r) => reports.push(r),
    });
    for (const vmid of ours) await provider.delete(formatProviderId(vmid, name), options('refuse'));
    // The VMID the create worked on: its VM when it still carries the UID, else only the seed, where no VM uses it.
    if (input.vmid !== undefined) await provider.delete(formatProviderId(input.vmid, name), options('leave-alone'));
  });
  return describeCleanUp({ name, ...(input.vmid !== undefined ? { vmid: input.vmid } : {}), reports, leftAlone });
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
