/** Clean up: deletes what an unfinished create left, and only what carries its UID. */
import { type DeleteOptions, type DeleteReport, formatProviderId, notTheOne, readConfigs } from '../../../core';
import { AppError } from '../../../errors/app-error';
import { describeCleanUp } from '../records/outcomes';
import { withName, type Runner } from './run-context';

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
