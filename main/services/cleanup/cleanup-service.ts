/** The cleanup service: scans on request, and hands the delete of selected seeds to the task manager. */
import type { CleanupReport } from '../../../shared/channels/cleanup';
import type { SeedRef } from '../../../shared/channels/tasks';
import { toProviderError } from '../../core/provider/classify';
import type { ClusterDirectory } from '../clusters/cluster';
import type { TaskManager } from '../tasks/task-manager';
import { scanCluster } from './scan';

export const DEFAULT_GRACE_MINUTES = 15;

export interface CleanupOptions {
  directory: ClusterDirectory;
  tasks: TaskManager;
  now?: () => Date;
}

export type CleanupService = ReturnType<typeof createCleanupService>;

export function createCleanupService(o: CleanupOptions) {
  const now = o.now ?? (() => new Date());
  return {
    scan(clusterId: string, graceMinutes = DEFAULT_GRACE_MINUTES, signal?: AbortSignal): Promise<CleanupReport> {
      const cluster = o.directory.get(clusterId);
      const busyWith = (name: string) => {
        const task = o.tasks.names.busy(clusterId, name);
        return task ? `The task "${task.target}" (${task.state})` : undefined;
      };
      // Proxmox's failures reach the user classified, with a hint, not as an internal error.
      return scanCluster({ cluster, graceMinutes, now: now(), busyWith, ...(signal ? { signal } : {}) }).catch((e: unknown) => {
        throw toProviderError('list', e);
      });
    },
    deleteSeeds(clusterId: string, seeds: SeedRef[], dryRun: boolean, graceMinutes = DEFAULT_GRACE_MINUTES): { taskId: string } {
      return o.tasks.cleanSeeds(clusterId, seeds, dryRun, graceMinutes);
    },
  };
}
