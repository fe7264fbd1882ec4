/**
 * What a request's targets are, read before any task exists: the mark's UID
 * of the VM at each VMID. A request whose VMID, name and mark disagree is
 * refused whole, and nothing is sent.
 */
import { type ClusterResource, formatProviderId, notTheOne, parseMark, readConfigs } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { Cluster } from '../../clusters/cluster';
import type { DeleteProxyInput } from '../records/task-record';

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

/** A VM a day-two request names, as read now: the listing's row and the mark's UID. */
export interface ResolvedTarget {
  vmid: number;
  name: string;
  uid: string;
  vm: ClusterResource;
}

/**
 * The VMs a day-two request (power, and each later action) names, read now with delete's identity read: a VM that is
 * gone, whose VMID, name and mark disagree, or that carries a mark without a UID refuses the whole request before
 * any task exists. `applies` adds the action's own refusals (its state, its node).
 */
export async function resolveTargets(
  cluster: Cluster,
  targets: readonly { vmid: number; name: string }[],
  words: IdentityWords & { action: string },
  applies: (t: ResolvedTarget) => string | undefined = () => undefined,
): Promise<ResolvedTarget[]> {
  const ids = targets.map((t) => ({ id: formatProviderId(t.vmid, t.name), vmid: t.vmid, name: t.name }));
  const listed = await cluster.api.clusterResources('vm');
  const expected = await expectationsForDelete(cluster, ids, listed, words);
  const refusals: string[] = [];
  const resolved: ResolvedTarget[] = [];
  targets.forEach((t, i) => {
    const e = expected[i]!;
    const vm = listed.find((x) => x.vmid === t.vmid && x.type === 'qemu');
    if (e === 'absent' || !vm) return void refusals.push(`No VM ${t.vmid} (${t.name}) is left: it is gone`);
    if (!e.uid) return void refusals.push(`VM ${t.vmid} carries a mark without a UID`);
    const target = { vmid: t.vmid, name: t.name, uid: e.uid, vm };
    const why = applies(target);
    if (why) refusals.push(`${t.name} (VM ${t.vmid}): ${why}`);
    resolved.push(target);
  });
  if (refusals.length > 0)
    throw new AppError(
      'invalid-input',
      `${words.action} does not apply: ${refusals.join('; ')}. ${words.nothing}`,
      'Refresh the inventory and pick the proxies again.',
      'targets',
    );
  return resolved;
}
