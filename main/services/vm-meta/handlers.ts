/**
 * Issue 23's channels (shared/channels/vm-meta.ts): a proxy's notes and tags,
 * and the cluster's own task history of it, through the cluster's provider.
 * A write refreshes the cluster's inventory, so the Proxies table shows the
 * tags Proxmox now keeps. Issue 25's `vm.snapshots` lists the VM's snapshots
 * (the app's and others') beside whether its disks can snapshot, in the core's
 * words; reads only, when the drawer asks.
 */
import type { vmMetaChannels } from '../../../shared/channels/vm-meta';
import { isProviderError } from '../../core';
import { AppError } from '../../errors/app-error';
import { redactSecrets } from '../../log/secrets';
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
    'vm.snapshots': async ({ clusterId, vmid, name }, ctx) => {
      const provider = clusterFor(directory, clusterId, vmid, 'read the snapshots').provider;
      const id = `vms/${vmid}/${name}`;
      const [listing, support] = await Promise.all([
        provider.snapshots(id, { signal: ctx.signal }),
        provider.snapshotSupport(id, { signal: ctx.signal }),
      ]).catch((e: unknown) => {
        // Proxmox lists no VM the token may not audit (/cluster/resources): gone, or the token lost VM.Audit on it.
        if (isProviderError(e) && e.kind === 'not-found')
          throw new AppError(
            'not-found',
            `${e.message}, or the token may no longer see it.`,
            `Refresh the view. If VM ${vmid} is still in the Proxmox UI, grant VM.Audit on /vms/${vmid} to the token's user.`,
          );
        throw e;
      });
      return {
        node: listing.node,
        vmid: listing.vmid,
        supported: support.possible,
        ...(support.possible ? {} : { why: support.message }),
        snapshots: listing.snapshots.map((s) => ({
          name: s.name,
          ...(s.takenAt ? { time: s.takenAt.toISOString() } : {}),
          // Another's description is an admin's text; a secret the app knows (a proxy password pasted there) never crosses.
          description: redactSecrets(s.description),
          ours: s.ours,
          ...(s.parent ? { parent: s.parent } : {}),
          vmstate: s.withRam,
          ...(s.state ? { state: s.state } : {}),
        })),
        ...(listing.currentParent ? { current: listing.currentParent } : {}),
      };
    },
    'vm.taskLog': async ({ clusterId, vmid, upid, start, limit }, ctx) =>
      clusterFor(directory, clusterId, vmid, 'read a task log').provider.taskHistoryLog(
        vmid,
        upid,
        { ...(start !== undefined ? { start } : {}), ...(limit !== undefined ? { limit } : {}) },
        { signal: ctx.signal },
      ),
  };
}
