/** The template builds the journal knows for a cluster: Cleanup's read model (its scan's half-built templates and images). */
import type { TaskInput, TaskRecord } from '../records/task-record';
import { toView } from '../records/task-view';

export function templateBuildsOf(tasks: readonly TaskRecord[], clusterId: string) {
  return tasks
    .filter((t) => t.clusterId === clusterId && t.input.kind === 'build-template')
    .map((t) => {
      const input = t.input as Extract<TaskInput, { kind: 'build-template' }>;
      return {
        taskId: t.id,
        state: t.state,
        open: toView(t).actions.includes('clean-up'),
        buildId: input.request.buildId,
        node: input.request.node,
        ...(input.resume?.volid ? { volid: input.resume.volid } : {}),
        ...(input.resume?.downloadedByUs ? { downloadedByUs: true } : {}),
        ...(input.request.keepImage ? { keepImage: true } : {}),
      };
    });
}
