/**
 * Issue 26: Release for adoption by the Kubernetes operator, and its Undo,
 * one journalled task per VM (runners/mark.ts). A release is refused, before
 * any task exists, for a proxy this app did not make, one whose user-data it
 * does not keep (the operator's Proxy must carry it), and one a task of the
 * app is working on; its seed is checked by the core right before the write.
 * An Undo takes only a VM this app released (its record names the VM), and
 * the core writes the UID back only while the mark's uid is still empty and
 * the seed is the one the release listed (the operator's adoption of a
 * stopped VM uploads it again: core/provider/operations/mark-uid.ts).
 */
import type { HandoffTargets } from '../../../../shared/channels/handoff';
import { AppError } from '../../../errors/app-error';
import { distinctTargets } from './bulk';
import { resolveTargets } from './identity';
import type { ManagerParts } from '../manager-parts';
import type { ProxyRecords } from '../records/proxy-records';
import type { MarkProxyInput } from '../records/task-record';

export function releaseRequests(parts: ManagerParts, records: ProxyRecords) {
  const once = (input: HandoffTargets) =>
    distinctTargets(
      input.targets,
      (t) => t.vmid,
      (t) => new AppError('invalid-input', `VM ${t.vmid} is asked for twice.`, 'Pick each proxy once.', 'targets'),
    );
  const busyWords = (clusterId: string, name: string) => {
    const busy = parts.names.busy(clusterId, name);
    return busy ? `a task of Egress Desk (${busy.kind}) is working on it; wait for it to end` : undefined;
  };
  const submit = (tasks: ReturnType<ManagerParts['newRecord']>[]) => {
    for (const t of tasks) parts.submit(t);
    return { taskIds: tasks.map((t) => t.id) };
  };

  async function release(input: HandoffTargets): Promise<{ taskIds: string[] }> {
    const cluster = parts.directory.get(input.clusterId);
    once(input);
    const words = { nothing: 'Nothing was released.', acts: 'releases', action: 'Release to Kubernetes' };
    const resolved = await resolveTargets(cluster, input.targets, words, (t) => {
      if (!records.ours(cluster.id, t.uid)) return 'Egress Desk did not make it, so it has nothing to hand over';
      if (records.sealedUserData(cluster.id, t.uid) === undefined)
        return 'Egress Desk does not keep its user-data, which the operator needs (reconfigure it once with its user-data first)';
      return busyWords(cluster.id, t.name);
    });
    return submit(
      resolved.map((t) => {
        const record: MarkProxyInput = { kind: 'release-proxy', clusterId: cluster.id, vmid: t.vmid, name: t.name, uid: t.uid, seedOn: cluster.profile.isoStorage };
        return parts.newRecord('release-proxy', cluster.id, t.name, record, { vmid: t.vmid, ...(t.vm.node ? { node: t.vm.node } : {}) });
      }),
    );
  }

  function reclaim(input: HandoffTargets): { taskIds: string[] } {
    const cluster = parts.directory.get(input.clusterId);
    once(input);
    const refusals: string[] = [];
    const found = input.targets.map((t) => {
      const released = records.releaseOf(cluster.id, t.vmid, t.name);
      if (!released) refusals.push(`${t.name} (VM ${t.vmid}): Egress Desk did not release it`);
      else if (released.adopted) refusals.push(`${t.name} (VM ${t.vmid}): the Kubernetes operator has adopted it (its seed was uploaded again after the release)`);
      const busy = busyWords(cluster.id, t.name);
      if (busy) refusals.push(`${t.name} (VM ${t.vmid}): ${busy}`);
      return { ...t, uid: released?.uid ?? '', seed: released?.seed };
    });
    if (refusals.length > 0)
      throw new AppError('invalid-input', `Undo release does not apply: ${refusals.join('; ')}. Nothing was taken back.`, 'Refresh the inventory and pick the proxies again.', 'targets');
    return submit(
      found.map((t) => {
        const record: MarkProxyInput = { kind: 'reclaim-proxy', clusterId: cluster.id, vmid: t.vmid, name: t.name, uid: t.uid, ...(t.seed ? { releasedSeed: t.seed } : {}) };
        return parts.newRecord('reclaim-proxy', cluster.id, t.name, record, { vmid: t.vmid });
      }),
    );
  }

  return { release, reclaim };
}
