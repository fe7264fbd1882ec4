/**
 * One VM's reconfigure (issue 16): the core's reconfigure
 * (core/provider/operations/reconfigure.ts: lookup, configure, resize, stage-seed,
 * replace-seed, reboot, wait-running) under the proxy name's lock, acting
 * only on a VM that still carries the mark's UID. The new seed's
 * instance-id was chosen when the task was asked for and is journalled, so
 * a Resume builds the same seed bytes; the core sees a stage already done
 * (the CD-ROM on the staged copy) and goes on from there.
 *
 * A rerun converges on the two things an earlier run may have finished:
 * a disk already grown to the size asked (the core refuses a size that is
 * not larger, as it must for a new request) and a seed already replaced
 * (its user-data is dropped from the journal once the run succeeded).
 *
 * The new seed's instance-id goes in the app's record (proxy-records.ts):
 * as pending before the swap's first upload, as the seed's own once the
 * swap is done, so a later migrate rebuilds the same bytes on its target.
 */
import { bootDisk, diskBytes, formatProviderId, type ReconfigureChange } from '../../../core';
import type { ProxyRecords } from '../records/proxy-records';
import { withName, type RunContext, type Runner } from './run-context';
import type { ReconfigureProxyInput } from '../records/task-record';

export const reconfigureProxy =
  (records: ProxyRecords): Runner =>
  async (ctx) => {
    const input = ctx.current().input;
    if (input.kind !== 'reconfigure-proxy') throw new Error('reconfigure runner given another kind');
    const change: ReconfigureChange = {
      ...(input.cores !== undefined ? { cores: input.cores } : {}),
      ...(input.memoryMiB !== undefined ? { memoryMiB: input.memoryMiB } : {}),
      ...(input.diskGiB !== undefined && !(await grownAlready(ctx, input)) ? { diskGiB: input.diskGiB } : {}),
      ...(input.network !== undefined ? { network: input.network } : {}),
    };
    if (input.sealedCloudInit !== undefined && input.instanceId !== undefined)
      change.userData = {
        text: await ctx.openCloudInit(),
        instanceId: input.instanceId,
        network: records.network(ctx.cluster.id, input.uid),
      };
    if (Object.keys(change).length === 0) return `${input.name} (VM ${input.vmid}) has every change already: an earlier run made them.`;
    const r = await withName(ctx, input.name, () =>
      ctx.cluster.provider.reconfigure(formatProviderId(input.vmid, input.name), change, {
        signal: ctx.signal,
        onProgress: (e) => {
          // Before the first seed upload goes out: from here the seed on Proxmox may carry either instance-id.
          if (change.userData && e.phase === 'started' && (e.step === 'stage-seed' || e.step === 'replace-seed'))
            records.seedSwapBegins(ctx.cluster.id, input.uid, change.userData.instanceId);
          ctx.onProgress(e);
        },
        expect: { uid: input.uid },
        ...(input.reboot !== undefined ? { reboot: input.reboot } : {}),
      }),
    );
    // The record keeps the new seed's user-data (sealed) and its endpoint, and the machine type the VM is now.
    if (r.instanceId !== undefined)
      records.seedWritten(ctx.cluster.id, input.uid, r.instanceId, { sealedUserData: input.sealedCloudInit, endpoint: input.endpoint });
    if (input.machineType !== undefined) records.machineTypeChanged(ctx.cluster.id, input.uid, input.machineType);
    if (input.network !== undefined) records.networkMoved(ctx.cluster.id, input.uid, input.network);
    const done = ctx.current().input;
    if (done.kind === 'reconfigure-proxy' && done.sealedCloudInit !== undefined)
      ctx.update({ input: { ...done, sealedCloudInit: undefined } });
    return `${input.name} (VM ${r.vmid} on ${r.node}): ${r.message}`;
  };

/** On a rerun only: the boot disk is already the size asked (an earlier run grew it). One read. */
async function grownAlready(ctx: RunContext, input: ReconfigureProxyInput): Promise<boolean> {
  if (ctx.current().attempts <= 1 || input.diskGiB === undefined) return false;
  const vm = (await ctx.cluster.api.clusterResources('vm', { signal: ctx.signal })).find((r) => r.vmid === input.vmid && r.node);
  if (!vm?.node) return false; // the core's lookup says it is gone, in its words
  const config = await ctx.cluster.api.vmConfig(vm.node, input.vmid, { signal: ctx.signal });
  const disk = bootDisk(config);
  const bytes = disk ? diskBytes(config[disk]) : undefined;
  return bytes !== undefined && bytes >= input.diskGiB * 2 ** 30;
}
