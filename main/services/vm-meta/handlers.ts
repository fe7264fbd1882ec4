/**
 * Issue 23's channels (shared/channels/vm-meta.ts): a proxy's notes and tags,
 * and the cluster's own task history of it, through the cluster's provider.
 * A write refreshes the cluster's inventory, so the Proxies table shows the
 * tags Proxmox now keeps.
 */
import type { vmMetaChannels } from '../../../shared/channels/vm-meta';
import { AppError } from '../../errors/app-error';
import type { AreaHandlers } from '../../ipc/router';
import type { Cluster, ClusterDirectory } from '../clusters/cluster';

export interface VmMetaDeps {
  directory: ClusterDirectory;
  /** After a write: the inventory reads the cluster again. */
  refreshAfterWrite(clusterId: string): void;
}

function clusterFor(directory: ClusterDirectory, clusterId: string, vmid: number, what: string): Cluster {
  const cluster = directory.get(clusterId);
  if (cluster.secretMissing?.())
    throw new AppError(
      'permanent',
      `Egress Desk does not hold the token secret of "${cluster.name}", so it cannot ${what} of VM ${vmid}.`,
      'Enter the secret in Settings, then try again.',
    );
  return cluster;
}

export function vmMetaHandlers(deps: VmMetaDeps): AreaHandlers<typeof vmMetaChannels> {
  const { directory } = deps;
  return {
    'vm.notes': async ({ clusterId, vmid, name }, ctx) =>
      clusterFor(directory, clusterId, vmid, 'read the notes').provider.notes(`vms/${vmid}/${name}`, { signal: ctx.signal }),
    'vm.setNotes': async ({ clusterId, vmid, name, notes, tags, digest }, ctx) => {
      const cluster = clusterFor(directory, clusterId, vmid, 'write the notes');
      const change = { digest, ...(notes !== undefined ? { notes } : {}), ...(tags !== undefined ? { tags } : {}) };
      const written = await cluster.provider.setNotes(`vms/${vmid}/${name}`, change, { signal: ctx.signal });
      deps.refreshAfterWrite(clusterId);
      return written;
    },
    'vm.taskHistory': async ({ clusterId, vmid, name, limit }, ctx) =>
      clusterFor(directory, clusterId, vmid, 'read the task history').provider.taskHistory(`vms/${vmid}/${name}`, {
        signal: ctx.signal,
        ...(limit !== undefined ? { limit } : {}),
      }),
    'vm.taskLog': async ({ clusterId, vmid, upid, start, limit }, ctx) =>
      clusterFor(directory, clusterId, vmid, 'read a task log').provider.taskHistoryLog(
        vmid,
        upid,
        { ...(start !== undefined ? { start } : {}), ...(limit !== undefined ? { limit } : {}) },
        { signal: ctx.signal },
      ),
  };
}
