/**
 * The tasks.migrate, tasks.reconfigure and tasks.recreate channels (issue
 * 16): one task per VM, under one parent when there are several (bulk.ts).
 * Everything that can be refused is refused here, before any task exists
 * and before any request that changes anything: a target node outside the
 * profile or the VM's own node, a disk not larger than today's, a machine
 * type or template the profile lacks, a VM that is gone, foreign, not the
 * one named (identity.ts), operator-made without the user's
 * acknowledgement of the operator warning, or user-data cloud-init would
 * ignore or cannot parse (user-data-check.ts: the dialogs' own rule). A disk
 * larger than its storage has room for is refused by the core, before any
 * write (core/provider/operations/reconfigure.ts checkRoom).
 */
import { randomUUID } from 'node:crypto';
import type { MigrateInput, ReconfigureInput, RecreateInput } from '../../../../shared/channels/tasks';
import type { ProxyAction } from '../../../../shared/domain/proxy-actions';
import { newInstanceId } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { Cluster } from '../../clusters/cluster';
import { submitBulk } from './bulk';
import { networkProblems } from '../../../../shared/domain/proxy-network';
import { refuseBadNetwork } from '../../network/bridges';
import { resolveTargets, type IdentityWords, type ResolvedTarget } from './identity';
import type { ManagerParts } from '../manager-parts';
import { requireAcknowledgement, verdictFor } from './operator-warning';
import type { ProxyRecords } from '../records/proxy-records';
import type { Sealer } from '../sealer';
import type { MigrateProxyInput, ReconfigureProxyInput, RecreateProxyInput } from '../records/task-record';
import { refuseBadUserData } from './user-data-check';
import { endpointOfUserData } from '../../../../shared/domain/proxy-endpoint';

export interface DayTwoDeps {
  parts: ManagerParts;
  sealer: Sealer;
  /** The app's record of each proxy: the template and machine type it made it with; none for the operator's. */
  records: ProxyRecords;
  /** Issue 24: whether a proxy's credentials rotate has not ended (its seed may carry either set). */
  rotating?: ((clusterId: string, uid: string) => boolean) | undefined;
}

const GIB = 1024 ** 3;

export function dayTwoRequests({ parts, sealer, records, rotating }: DayTwoDeps) {
  /**
   * Issue 24: a seed rebuilt with the kept credentials while a rotate has not ended could undo it (the guest may hold
   * the new set): refused in words until the rotate is retried to its end.
   */
  const rotateUnresolved = (clusterId: string, uid: string) =>
    rotating?.(clusterId, uid)
      ? 'a rotate of its credentials has not ended (its seed may carry the new ones): Retry that rotate in Tasks first'
      : undefined;
  const origin = (clusterId: string, uid: string) => records.origin(clusterId, uid);
  /**
   * An operator-made VM (marked, not made here) needs the user's explicit acknowledgement: the operator may undo the
   * change. Its state is left to the core, which refuses a locked or hibernated VM in its own words.
   */
  function operatorCheck(
    cluster: Cluster,
    resolved: ResolvedTarget[],
    action: ProxyAction,
    acknowledged: boolean | undefined,
    words: IdentityWords,
  ) {
    const verdicts = resolved.map((t) => ({ ...t, verdict: verdictFor(t.vm, action, records.ours(cluster.id, t.uid)) }));
    requireAcknowledgement(verdicts, acknowledged, words);
  }

  const sealed = async (text: string | undefined) => (text === undefined ? {} : { sealedCloudInit: await sealer.seal(text) });
  const endpointOf = (text: string | undefined) => {
    const endpoint = text === undefined ? undefined : endpointOfUserData(text);
    return endpoint ? { endpoint } : {};
  };
  /**
   * The user-data for a migrate's seed rebuild: the user's, else the one this app put into the seed (its record),
   * so the user is asked only for a proxy the app has no record of (issue 23 item 4).
   */
  const migrateUserData = async (text: string | undefined, clusterId: string, uid: string) => {
    if (text !== undefined) return sealed(text);
    const kept = records.sealedUserData(clusterId, uid);
    return kept === undefined ? {} : { sealedCloudInit: kept };
  };

  /** A recreate's user-data: the user's, else the one this app put into the old seed, with its endpoint. */
  const recreateUserData = async (text: string | undefined, clusterId: string, uid: string) => {
    if (text !== undefined) return { ...(await sealed(text)), ...endpointOf(text) };
    const endpoint = records.endpoint(clusterId, uid);
    return { sealedCloudInit: records.sealedUserData(clusterId, uid)!, ...(endpoint ? { endpoint } : {}) };
  };

  async function migrate(input: MigrateInput) {
    const cluster = parts.directory.get(input.clusterId);
    if (!cluster.profile.nodes.includes(input.to))
      throw new AppError('invalid-input', `The node "${input.to}" is not in this cluster's profile.`, 'Pick a node from the list.', 'to');
    const words = { nothing: 'Nothing was migrated.', acts: 'migrates', action: 'Migrate' };
    for (const t of input.targets) refuseBadUserData(t.cloudInit, words.nothing, `${t.name} (VM ${t.vmid})`);
    const resolved = await resolveTargets(cluster, input.targets, words, (t) =>
      t.vm.node === input.to ? `it is already on ${input.to}: pick another node` : rotateUnresolved(cluster.id, t.uid),
    );
    operatorCheck(cluster, resolved, 'migrate', input.acknowledgeOperatorWarning, words);
    const tasks = await Promise.all(
      resolved.map(async (t, i) => {
        const record: MigrateProxyInput = {
          kind: 'migrate-proxy',
          clusterId: cluster.id,
          vmid: t.vmid,
          name: t.name,
          uid: t.uid,
          to: input.to,
          ...(await migrateUserData(input.targets[i]!.cloudInit, cluster.id, t.uid)),
        };
        return parts.newRecord('migrate-proxy', cluster.id, t.name, record, { vmid: t.vmid, ...(t.vm.node ? { node: t.vm.node } : {}) });
      }),
    );
    return submitBulk(
      parts,
      { kind: 'migrate-proxies', clusterId: cluster.id, target: `Migrate ${tasks.length} proxies to ${input.to}` },
      tasks,
    );
  }

  async function reconfigure(input: ReconfigureInput) {
    const cluster = parts.directory.get(input.clusterId);
    const machine = input.machineType === undefined ? undefined : cluster.profile.machineTypes[input.machineType];
    if (input.machineType !== undefined && !machine)
      throw new AppError(
        'invalid-input',
        `There is no machine type "${input.machineType}" in this cluster's profile.`,
        'Pick a machine type from the list.',
        'machineType',
      );
    const words = { nothing: 'Nothing was changed.', acts: 'reconfigures', action: 'Reconfigure' };
    refuseBadUserData(input.cloudInit, words.nothing);
    const [netProblem] = input.network ? networkProblems(input.network) : [];
    if (netProblem)
      throw new AppError(
        'invalid-input',
        `${netProblem.message} ${words.nothing}`,
        'Correct the network settings and try again.',
        `network.${netProblem.field}`,
      );
    // A disk only grows (qemu-server resize_vm: "shrinking disks is not supported"): an explicit size must be larger.
    const resolved = await resolveTargets(cluster, input.targets, words, (t) => {
      const today = t.vm.maxdisk;
      if (input.diskGiB !== undefined && today !== undefined && input.diskGiB * GIB <= today)
        return `its disk is ${Math.round(today / GIB)} GiB today, and a disk only grows: pick more than that`;
      return input.cloudInit !== undefined ? rotateUnresolved(cluster.id, t.uid) : undefined;
    });
    operatorCheck(cluster, resolved, 'reconfigure', input.acknowledgeOperatorWarning, words);
    // Issue 24: a bridge is checked on the node each VM is on, before any task.
    await refuseBadNetwork(
      cluster,
      input.network,
      resolved.flatMap((t) => (t.vm.node ? [t.vm.node] : [])),
      words.nothing,
    );
    const cloudInit = await sealed(input.cloudInit);
    const tasks = resolved.map((t) => {
      // Issue 23 item 9: the disk changes only when a size was given ("Empty keeps it"); a machine type's disk is a
      // create's, never a silent resize.
      const diskGiB = input.diskGiB;
      const record: ReconfigureProxyInput = {
        kind: 'reconfigure-proxy',
        clusterId: cluster.id,
        vmid: t.vmid,
        name: t.name,
        uid: t.uid,
        ...(machine ? { cores: machine.cores, memoryMiB: machine.memoryMiB, machineType: input.machineType } : {}),
        ...(diskGiB !== undefined ? { diskGiB } : {}),
        ...(input.cloudInit !== undefined
          ? { ...cloudInit, ...endpointOf(input.cloudInit), instanceId: newInstanceId(t.name, parts.now()) }
          : {}),
        ...(input.reboot !== undefined ? { reboot: input.reboot } : {}),
        ...(input.network !== undefined ? { network: input.network } : {}),
      };
      return parts.newRecord('reconfigure-proxy', cluster.id, t.name, record, { vmid: t.vmid, ...(t.vm.node ? { node: t.vm.node } : {}) });
    });
    return submitBulk(parts, { kind: 'reconfigure-proxies', clusterId: cluster.id, target: `Reconfigure ${tasks.length} proxies` }, tasks);
  }

  async function recreate(input: RecreateInput) {
    const cluster = parts.directory.get(input.clusterId);
    const { profile } = cluster;
    if (input.template !== undefined && !profile.templates[input.template])
      throw new AppError(
        'invalid-input',
        `There is no template "${input.template}" in this cluster's profile.`,
        'Pick a template from the list.',
        'template',
      );
    if (input.machineType !== undefined && !profile.machineTypes[input.machineType])
      throw new AppError(
        'invalid-input',
        `There is no machine type "${input.machineType}" in this cluster's profile.`,
        'Pick a machine type from the list.',
        'machineType',
      );
    for (const t of input.targets) refuseBadUserData(t.cloudInit, 'Nothing was recreated.', `${t.name} (VM ${t.vmid})`);
    for (const t of input.targets) {
      const busy = parts.names.busy(cluster.id, t.name);
      if (busy)
        throw new AppError(
          'permanent',
          `A task is already working on ${t.name}.`,
          'Wait for it to end, or resolve it, then try again.',
          'targets',
        );
    }
    const words = { nothing: 'Nothing was recreated.', acts: 'recreates', action: 'Recreate' };
    const madeFrom = (t: ResolvedTarget) => {
      const known = origin(cluster.id, t.uid);
      return { template: input.template ?? known?.template, machineType: input.machineType ?? known?.machineType };
    };
    const given = new Map(input.targets.map((t) => [t.vmid, t.cloudInit]));
    const resolved = await resolveTargets(cluster, input.targets, words, (t) => {
      const from = madeFrom(t);
      if (from.template === undefined || from.machineType === undefined)
        return 'Egress Desk has no record of the template and machine type it was made with: pick them';
      if (given.get(t.vmid) === undefined && records.sealedUserData(cluster.id, t.uid) === undefined)
        return 'Egress Desk keeps no user-data of its seed (made outside this app, or its record was lost): give it';
      return undefined;
    });
    operatorCheck(cluster, resolved, 'recreate', input.acknowledgeOperatorWarning, words);
    const tasks = await Promise.all(
      resolved.map(async (t, i) => {
        const from = madeFrom(t);
        const record: RecreateProxyInput = {
          kind: 'recreate-proxy',
          clusterId: cluster.id,
          vmid: t.vmid,
          name: t.name,
          uid: t.uid,
          newUid: randomUUID(),
          template: from.template!,
          machineType: from.machineType!,
          ...(t.vm.node ? { node: t.vm.node } : {}),
          ...(await recreateUserData(input.targets[i]!.cloudInit, cluster.id, t.uid)),
          ...networkOf(cluster.id, t.uid),
        };
        return parts.newRecord('recreate-proxy', cluster.id, t.name, record, { vmid: t.vmid, ...(t.vm.node ? { node: t.vm.node } : {}) });
      }),
    );
    return submitBulk(parts, { kind: 'recreate-proxies', clusterId: cluster.id, target: `Recreate ${tasks.length} proxies` }, tasks);
  }

  /** Issue 24: the network the app made the proxy with, for the proxy that replaces it. */
  function networkOf(clusterId: string, uid: string) {
    const network = records.network(clusterId, uid);
    return network ? { network } : {};
  }

  return { migrate, reconfigure, recreate };
}
