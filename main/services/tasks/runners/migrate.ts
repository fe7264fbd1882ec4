/**
 * One VM's migrate (issue 16): the core's migrate (core/provider/operations/migrate.ts:
 * lookup, copy-seed, detach-seed, migrate, attach-seed, delete-source-seed)
 * under the proxy name's lock, acting only on a VM that still carries the
 * mark's UID. The node the lookup finds is journalled before any change, so
 * a Resume that finds the VM already moved finishes on the target (and
 * deletes the source's seed copy) instead of refusing it as "already there";
 * a seed already copied is seen on the target and not copied twice.
 *
 * A seed on node-local storage is rebuilt on the target from the user's
 * user-data and the instance-id in the app's record (proxy-records.ts: the
 * last reconfigure's, else create's, the name). Without a record, or while
 * a reconfigure's seed swap is unfinished, the instance-id is not known for
 * sure, and a wrong one would make the guest rerun its first-boot modules:
 * refused before any change.
 */
import { formatProviderId, isSharedStorage, type SeedSource } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { ProxyRecords } from '../records/proxy-records';
import { withName, type RunContext, type Runner } from './run-context';
import type { MigrateProxyInput } from '../records/task-record';

export const migrateProxy =
  (records: ProxyRecords): Runner =>
  async (ctx) => {
    const input = ctx.current().input;
    if (input.kind !== 'migrate-proxy') throw new Error('migrate runner given another kind');
    const seed = input.sealedCloudInit !== undefined ? await seedSource(ctx, records, input) : undefined;
    const r = await withName(ctx, input.name, () =>
      ctx.cluster.provider.migrate(formatProviderId(input.vmid, input.name), input.to, {
        signal: ctx.signal,
        expect: { uid: input.uid },
        ...(seed !== undefined ? { seed } : {}),
        ...(input.from !== undefined ? { from: input.from } : {}),
        onProgress: (e) => {
          ctx.onProgress(e);
          const now = ctx.current().input;
          if (e.step === 'lookup' && e.phase === 'done' && e.node && now.kind === 'migrate-proxy' && now.from === undefined)
            ctx.update({ input: { ...now, from: e.node } });
        },
      }),
    );
    // The VM is on the target with its seed: nothing needs the user-data again, and the task names the node the VM is
    // on now (issue 23 item 13: "succeeded on <source>" read as if it had stayed).
    const done = ctx.current().input;
    if (done.kind === 'migrate-proxy')
      ctx.update({ node: input.to, ...(done.sealedCloudInit !== undefined ? { input: { ...done, sealedCloudInit: undefined } } : {}) });
    return `${input.name} (VM ${r.vmid}): ${r.message}.`;
  };

/**
 * The user-data and the instance-id the seed carries now, for a rebuild on the target. Where the record cannot say the
 * instance-id, a shared seed storage needs no rebuild (undefined: the seed goes with the VM); a local one is refused.
 */
async function seedSource(ctx: RunContext, records: ProxyRecords, input: MigrateProxyInput): Promise<SeedSource | undefined> {
  const known = records.seed(ctx.cluster.id, input.uid);
  if (known.state === 'known')
    return {
      userData: await ctx.openCloudInit(),
      ...(known.instanceId !== undefined ? { instanceId: known.instanceId } : {}),
      // Issue 24: a static address's network-config goes into the rebuilt seed too (the same bytes).
      network: records.network(ctx.cluster.id, input.uid),
    };
  const { isoStorage } = ctx.cluster.profile;
  if (isSharedStorage(await ctx.cluster.api.clusterResources('storage', { signal: ctx.signal }), isoStorage)) return undefined;
  const who = `${input.name} (VM ${input.vmid})`;
  if (known.state === 'pending')
    throw new AppError(
      'permanent',
      `A reconfigure of ${who} began writing a new seed and did not finish, so Egress Desk cannot tell which instance-id the seed on ${isoStorage} carries and cannot rebuild it on ${input.to}; nothing was sent.`,
      `Retry or resume that reconfigure in Tasks, then migrate ${input.name} again.`,
    );
  throw new AppError(
    'permanent',
    `Egress Desk has no record of the seed of ${who} (made outside this app, or its record was lost), so it cannot rebuild that seed byte for byte on ${input.to}, and ${isoStorage} is local to each node; nothing was sent.`,
    `Reconfigure its cloud-init in Egress Desk first (that writes a seed with a new instance-id and records it), then migrate; or make ${isoStorage} a shared storage.`,
  );
}
