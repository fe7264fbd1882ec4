/**
 * Issue 24: `proxies.rotateCredentials`, one proxy's credentials rotated in
 * place (runners/rotate-credentials.ts). Refused in words before any request
 * that changes anything (the only requests before the refusals are the
 * identity reads every day-two action makes): another task of the app on the
 * proxy, a VM that is gone, not the one named or not running, one whose seed
 * swap was cut off (its seed may be either one), a proxy whose
 * user-data the app does not keep (the operator's, or a record lost), one
 * made without credentials (its user-data names no placeholder), one whose
 * port the app does not know (its check could not run). The new
 * credentials are made here, when the task is asked for, and kept sealed as
 * the proxy's pending ones; the journal gets the instance-id and the
 * record's sealed user-data (placeholders only), never a password.
 */
import { wantsCredentials } from '../../../../shared/domain/proxy-credentials';
import { newInstanceId } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { ProxyCredentialStore } from '../../proxy-credentials/store';
import { startTask, type ManagerParts } from '../manager-parts';
import type { ProxyRecords } from '../records/proxy-records';
import type { RotateCredentialsInput } from '../records/task-record';
import type { Sealer } from '../sealer';
import { resolveTargets } from './identity';

export interface RotateRequest {
  clusterId: string;
  vmid: number;
  name: string;
}

const NOTHING = 'Nothing was changed.';

export function rotateRequest(deps: { parts: ManagerParts; sealer: Sealer; records: ProxyRecords; credentials?: ProxyCredentialStore | undefined }) {
  const { parts, sealer, records, credentials } = deps;
  return async function rotate(input: RotateRequest): Promise<{ taskId: string }> {
    const cluster = parts.directory.get(input.clusterId);
    const who = `${input.name} (VM ${input.vmid})`;
    if (!credentials)
      throw new AppError('permanent', `This app keeps no proxy credentials, so it cannot rotate those of ${who}. ${NOTHING}`, 'Use the desktop app or browser mode.');
    if (parts.names.busy(cluster.id, input.name))
      throw new AppError(
        'permanent',
        `A task of Egress Desk is already working on ${who}. ${NOTHING}`,
        'Wait for it to end, or resolve it in Tasks (Resume or Clean up), then rotate again.',
      );
    const words = { nothing: NOTHING, acts: 'rotates the credentials of', action: 'Rotate credentials' };
    const [t] = await resolveTargets(cluster, [{ vmid: input.vmid, name: input.name }], words, (v) =>
      v.vm.status === 'running'
        ? undefined
        : 'it is not running: start it first (the new credentials take effect at a reboot, and the app checks them through the proxy)',
    );
    const target = t!;
    if (records.seed(cluster.id, target.uid).state === 'pending')
      throw new AppError(
        'permanent',
        `A seed swap of ${who} has not ended (a reconfigure or rotate was cut off), so its seed may be either one. ${NOTHING}`,
        'Resume or retry that task in Tasks first, then rotate.',
      );
    const kept = records.ours(cluster.id, target.uid) ? records.sealedUserData(cluster.id, target.uid) : undefined;
    if (kept === undefined)
      throw new AppError(
        'permanent',
        `Egress Desk keeps no user-data of ${who}'s seed (it was made outside this app, or its record was lost), so it cannot write a new seed with new credentials. ${NOTHING}`,
        'Rotate its credentials where it was made, or recreate it from this app with "require a username and password".',
      );
    if (!wantsCredentials(await sealer.open(kept)))
      throw new AppError(
        'permanent',
        `${who} was made without a username and password (its user-data names no credential placeholder), so it has none to rotate. ${NOTHING}`,
        'Recreate it with "require a username and password", or reconfigure its user-data with the placeholders (user guide, "Credentials").',
      );
    if (!records.endpoint(cluster.id, target.uid))
      throw new AppError(
        'permanent',
        `Egress Desk does not know which port ${who}'s proxy listens on, so it could not check the new credentials. ${NOTHING}`,
        'Reconfigure its user-data with one of the presets, then rotate.',
      );
    await credentials.rotateBegin(cluster.id, target.uid, input.name);
    const record: RotateCredentialsInput = {
      kind: 'rotate-credentials',
      clusterId: cluster.id,
      vmid: target.vmid,
      name: target.name,
      uid: target.uid,
      instanceId: newInstanceId(target.name, parts.now()),
      sealedCloudInit: kept,
    };
    return startTask(parts, 'rotate-credentials', cluster.id, target.name, record, {
      vmid: target.vmid,
      ...(target.vm.node ? { node: target.vm.node } : {}),
    });
  };
}
