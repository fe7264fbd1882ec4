/** The tasks.createProxies channel: checks the request against the profile, picks nodes, seals the cloud-init, submits. */
import { randomUUID } from 'node:crypto';
import type { CreateProxiesInput } from '../../../../shared/channels/tasks';
import { AppError } from '../../../errors/app-error';
import { submitBulk } from './bulk';
import type { ManagerParts } from '../manager-parts';
import { pickNodes } from './pick-nodes';
import { proxyNames } from './proxy-names';
import type { Sealer } from '../sealer';
import type { TaskRecord } from '../records/task-record';
import { refuseBadUserData } from './user-data-check';
import { endpointOfUserData } from '../../../../shared/domain/proxy-endpoint';
import { networkProblems } from '../../../../shared/domain/proxy-network';
import { refuseBadNetwork } from '../../network/bridges';

export function createProxiesRequest(parts: ManagerParts, sealer: Sealer, onCreates: (tasks: TaskRecord[]) => void) {
  return async function createProxies(input: CreateProxiesInput): Promise<{ parentId?: string; taskIds: string[] }> {
    const cluster = parts.directory.get(input.clusterId);
    const { profile } = cluster;
    if (!profile.templates[input.template])
      throw new AppError(
        'invalid-input',
        `There is no template "${input.template}" in this cluster's profile.`,
        'Pick a template from the list.',
        'template',
      );
    if (!profile.machineTypes[input.machineType])
      throw new AppError(
        'invalid-input',
        `There is no machine type "${input.machineType}" in this cluster's profile.`,
        'Pick a machine type from the list.',
        'machineType',
      );
    if (input.node !== undefined && !profile.nodes.includes(input.node))
      throw new AppError(
        'invalid-input',
        `The node "${input.node}" is not in this cluster's profile.`,
        'Pick a node from the list, or let the app choose.',
        'node',
      );
    refuseBadUserData(input.cloudInit, 'Nothing was created.');
    // Issue 24: the network's own words before any read; the bridge against each chosen node once nodes are known.
    const [netProblem] = input.network ? networkProblems(input.network) : [];
    if (netProblem)
      throw new AppError(
        'invalid-input',
        `${netProblem.message} Nothing was created.`,
        'Correct the network settings and try again.',
        `network.${netProblem.field}`,
      );
    const proxies = proxyNames(input.count, input.name);
    for (const name of proxies) {
      if (parts.names.busy(cluster.id, name))
        throw new AppError(
          'permanent',
          `A task is already working on ${name}.`,
          'Wait for it to end, or resolve it (Resume or Clean up), then try again.',
          'name',
        );
    }
    const nodes = input.node !== undefined ? proxies.map(() => input.node!) : await pickNodes(cluster, proxies.length, input.template);
    await refuseBadNetwork(cluster, input.network, nodes, 'Nothing was created.');
    const sealedCloudInit = await sealer.seal(input.cloudInit);
    const endpoint = endpointOfUserData(input.cloudInit);
    const tasks = proxies.map((name, i) =>
      parts.newRecord(
        'create-proxy',
        cluster.id,
        name,
        {
          kind: 'create-proxy',
          uid: randomUUID(),
          name,
          node: nodes[i]!,
          template: input.template,
          machineType: input.machineType,
          sealedCloudInit,
          ...(endpoint ? { endpoint } : {}),
          ...(input.network ? { network: input.network } : {}),
        },
        { node: nodes[i]! },
      ),
    );
    onCreates(tasks);
    return submitBulk(parts, { kind: 'create-proxies', clusterId: cluster.id, target: `${proxies.length} proxies` }, tasks);
  };
}
