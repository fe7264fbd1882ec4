/** A start, shutdown, stop or reboot of one VM: the core's power operation under the proxy name's lock. */
import { formatProviderId, isProviderError, POWER_CODES } from '../../../core';
import { withName, type Runner } from './run-context';
import { isPowerInput } from '../records/task-record';

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
