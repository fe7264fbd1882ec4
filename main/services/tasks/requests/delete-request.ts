/**
 * The tasks.deleteProxies channel. One listing tells every VM's node, so
 * each delete takes its node's slot; with the configs it tells what each ID
 * means (the mark's UID), and refuses an ID whose VMID, name and mark
 * disagree before any task exists; an operator-made one too, unless the
 * request acknowledges the operator warning (operator-warning.ts). Its
 * state refuses nothing here: a delete converges from any state (it stops
 * a running VM; one already gone is done). Several deletes share a parent.
 */
import { parseProviderId } from '../../../core';
import { AppError } from '../../../errors/app-error';
import { distinctTargets, submitBulk } from './bulk';
import { expectationsForDelete } from './identity';
import type { ManagerParts } from '../manager-parts';
import { requireAcknowledgement, verdictFor } from './operator-warning';
import type { ProxyRecords } from '../records/proxy-records';

const deleteWords = { nothing: 'Nothing was deleted.', acts: 'deletes' };

export function deleteProxiesRequest(parts: ManagerParts, records: ProxyRecords) {
  return async function deleteProxies(
    clusterId: string,
    ids: string[],
    acknowledgeOperatorWarning?: boolean,
  ): Promise<{ parentId?: string; taskIds: string[] }> {
    const cluster = parts.directory.get(clusterId);
    const parsed = ids.map((id) => {
      try {
        return { id, ...parseProviderId(id) };
      } catch {
        throw new AppError('invalid-input', `"${id}" is not a proxy id (vms/<vmid>/<name>).`, 'Pick proxies from the inventory.', 'ids');
      }
    });
    distinctTargets(
      parsed,
      (p) => p.vmid,
      (p) => new AppError('invalid-input', `VM ${p.vmid} is asked for twice.`, 'Pick each proxy once.', 'ids'),
    );
    const listed = await cluster.api.clusterResources('vm');
    const expected = await expectationsForDelete(cluster, parsed, listed);
    requireAcknowledgement(
      parsed.flatMap((p, i) => {
        const vm = listed.find((r) => r.vmid === p.vmid && r.type === 'qemu');
        const e = expected[i]!;
        if (!vm || e === 'absent') return [];
        return [{ ...p, verdict: verdictFor(vm, 'delete', e.uid !== undefined && records.ours(clusterId, e.uid)) }];
      }),
      acknowledgeOperatorWarning,
      deleteWords,
    );
    const tasks = parsed.map((p, i) => {
      const node = listed.find((r) => r.vmid === p.vmid)?.node;
      return parts.newRecord(
        'delete-proxy',
        clusterId,
        p.name,
        { kind: 'delete-proxy', providerId: p.id, expect: expected[i]! },
        { vmid: p.vmid, ...(node ? { node } : {}) },
      );
    });
    return submitBulk(parts, { kind: 'delete-proxies', clusterId, target: `Delete ${tasks.length} proxies` }, tasks);
  };
}
