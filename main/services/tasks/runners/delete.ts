/**
 * A delete's work: the core's delete, under the proxy name's lock, told the
 * identity the request meant (the mark's UID, read when it was asked for),
 * which it checks right before each destructive request.
 */
import { type DeleteOptions, type DeleteReport, parseProviderId } from '../../../core';
import { describeDelete } from '../records/outcomes';
import { withName, type Runner } from './run-context';

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
  // Issue 24: the deleted proxy's credentials go with it (a VM the delete knew by its mark's UID).
  if (input.expect && input.expect !== 'absent') ctx.credentials?.forget(input.expect.uid);
  return report ? describeDelete(name, report) : `${name} is deleted.`;
};
