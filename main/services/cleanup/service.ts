/** The cleanup service: scans on request, and hands the delete of selected seeds to the task manager. */
import type { CleanupReport } from '../../../shared/channels/cleanup';
import type { SeedRef, TaskView } from '../../../shared/channels/tasks';
import type { BuildRequestRecord, BuildResumeRecord } from '../../../shared/channels/templates';
import { toProviderError } from '../../core';
import type { ClusterDirectory } from '../clusters/cluster';
import { AppError } from '../../errors/app-error';
import { scanCluster } from './scan';
import { scanTemplateLeftovers, type JournalledBuild } from './template-leftovers';

export const DEFAULT_GRACE_MINUTES = 15;

/**
 * What the cleanup asks of the task manager, stated here so cleanup imports nothing from tasks (tasks runs the
 * clean-seeds runner over cleanup's scan; tasks/task-services.ts hands the manager itself in).
 */
export interface CleanupTasks {
  /** The active task working on a proxy name, if any: its seed is kept. */
  names: { busy(clusterId: string, name: string): { target: string; state: string } | undefined };
  templateBuilds(clusterId: string): JournalledBuild[];
  /** Every task it knows: a proxy this app's own Stop or Shut down stopped is not a half-built one. */
  list(): Pick<TaskView, 'kind' | 'clusterId' | 'vmid' | 'target' | 'state' | 'createdAt'>[];
  cleanUp(taskId: string): { taskId: string };
  start(
    kind: 'clean-up-build',
    clusterId: string,
    target: string,
    input: { kind: 'clean-up-build'; ofTaskId: string; request: BuildRequestRecord; resume: BuildResumeRecord },
    node?: string,
  ): { taskId: string };
  cleanSeeds(clusterId: string, seeds: SeedRef[], dryRun: boolean, graceMinutes: number): { taskId: string };
}

export interface CleanupOptions {
  directory: ClusterDirectory;
  tasks: CleanupTasks;
  now?: () => Date;
  /** The grace period a scan or a delete uses when none is asked for: the app's setting (Settings → General). */
  graceMinutes?: () => number;
}

export type CleanupService = ReturnType<typeof createCleanupService>;

export function createCleanupService(o: CleanupOptions) {
  const now = o.now ?? (() => new Date());
  const setting = () => o.graceMinutes?.() ?? DEFAULT_GRACE_MINUTES;
  return {
    scan(clusterId: string, graceMinutes = setting(), signal?: AbortSignal): Promise<CleanupReport> {
      const cluster = o.directory.get(clusterId);
      const busyWith = (name: string) => {
        const task = o.tasks.names.busy(clusterId, name);
        return task ? `The task "${task.target}" (${task.state})` : undefined;
      };
      const at = now();
      const scan = async (): Promise<CleanupReport> => {
        const stoppedHere = (vmid: number, name: string) => stoppedByThisApp(o.tasks.list(), clusterId, vmid, name);
        const report = await scanCluster({ cluster, graceMinutes, now: at, busyWith, stoppedHere, ...(signal ? { signal } : {}) });
        // What crashed template builds left (issue 14): half-built template VMs and leftover import images.
        const left = await scanTemplateLeftovers({
          cluster,
          resources: await cluster.api.clusterResources('vm', { signal }),
          builds: o.tasks.templateBuilds(clusterId),
          graceMinutes,
          now: at,
          ...(signal ? { signal } : {}),
        });
        const seen = new Set(report.problems.map((p) => `${p.node}/${p.message}`));
        return {
          ...report,
          templateBuilds: left.templateBuilds,
          importImages: left.importImages,
          problems: [...report.problems, ...left.problems.filter((p) => !seen.has(`${p.node}/${p.message}`))],
        };
      };
      // Proxmox's failures reach the user classified, with a hint, not as an internal error.
      return scan().catch((e: unknown) => {
        throw toProviderError('list', e);
      });
    },
    /**
     * Half-built template VMs, each through its build's own clean-up (cleanupTemplateBuild): the journal's task when
     * it still offers Clean up, else a clean-up task made from the scan's row. Either destroys the VM only when its
     * description still carries this build id at this VMID, right before the destroy, and it is not a template.
     */
    deleteTemplateBuilds(clusterId: string, builds: { node: string; vmid: number; buildId: string }[]): { taskIds: string[] } {
      const cluster = o.directory.get(clusterId);
      const journal = o.tasks.templateBuilds(clusterId);
      const taskIds = builds.map((b) => {
        const known = journal.find((j) => j.buildId === b.buildId);
        if (known && (known.state === 'running' || known.state === 'queued'))
          throw new AppError(
            'permanent',
            `The template build ${b.buildId} is still running.`,
            'Cancel it in Tasks first, or let it finish.',
          );
        if (known?.open) return o.tasks.cleanUp(known.taskId).taskId;
        const token = cluster.profile.token;
        return o.tasks.start(
          'clean-up-build',
          clusterId,
          `half-built template ${b.vmid}`,
          {
            kind: 'clean-up-build',
            ofTaskId: known?.taskId ?? `scan:${b.buildId}`,
            request: {
              buildId: b.buildId,
              node: b.node,
              image: { kind: 'catalogue', id: 'half-built' },
              targetStorage: '',
              bridge: '',
              tokenId: token.kind === 'secret' ? token.tokenId : '<token id>',
            },
            resume: { vmid: b.vmid },
          },
          b.node,
        ).taskId;
      });
      return { taskIds };
    },
    deleteSeeds(clusterId: string, seeds: SeedRef[], dryRun: boolean, graceMinutes = setting()): { taskId: string } {
      return o.tasks.cleanSeeds(clusterId, seeds, dryRun, graceMinutes);
    },
  };
}

const powerKinds = new Set<TaskView['kind']>(['start-proxy', 'shutdown-proxy', 'stop-proxy', 'reboot-proxy', 'create-proxy']);

/** Whether the last of this app's creates and power tasks on the VM was a Stop or a Shut down that succeeded. */
export function stoppedByThisApp(tasks: ReturnType<CleanupTasks['list']>, clusterId: string, vmid: number, name: string): boolean {
  const last = tasks
    .filter((t) => t.clusterId === clusterId && t.vmid === vmid && t.target === name && powerKinds.has(t.kind))
    .reduce<(typeof tasks)[number] | undefined>((a, t) => (!a || t.createdAt > a.createdAt ? t : a), undefined);
  return !!last && (last.kind === 'stop-proxy' || last.kind === 'shutdown-proxy') && last.state === 'succeeded';
}
