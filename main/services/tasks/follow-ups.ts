/**
 * What a finished task offers and how it is run: Resume (a task the last run
 * left interrupted: the journal replay marks it, task-store.ts; the rerun
 * converges because every runner is idempotent by the identity its input
 * keeps), Retry (a failure that can pass, or a cancel) and Clean up (what an
 * unfinished create or build left, as a new task that closes this one).
 */
import { isBulkParentKind, type TaskKind, type TaskView } from '../../../shared/channels/tasks';
import { AppError } from '../../errors/app-error';
import { cleanUpBuildInput } from './runners/build-template';
import type { ManagerParts } from './manager-parts';
import { freshSteps } from './records/steps';
import { toView } from './records/task-view';

export function createFollowUps(parts: ManagerParts, stepsOf: (kind: TaskKind) => readonly string[]) {
  const { store, mustGet } = parts;

  function rerun(id: string, action: 'retry' | 'resume'): TaskView {
    const task = mustGet(id);
    if (isBulkParentKind(task.kind)) {
      const children = store.children(id).filter((c) => toView(c).actions.includes(action));
      if (children.length === 0)
        throw new AppError(
          'permanent',
          `No proxy of this request can be ${action === 'retry' ? 'retried' : 'resumed'}.`,
          'Look at each proxy of the request for what it allows.',
        );
      for (const c of children) rerun(c.id, action);
      return toView(mustGet(id));
    }
    if (!toView(task).actions.includes(action)) {
      throw new AppError(
        'permanent',
        `This task cannot be ${action === 'retry' ? 'retried' : 'resumed'}: it is ${task.state}${task.closedBy ? ' and was cleaned up' : ''}.`,
        action === 'resume'
          ? 'Resume is for tasks cut off by a crash or a quit; use Retry for a failed one.'
          : 'Retry is for failed or cancelled tasks; use Resume for an interrupted one.',
      );
    }
    const next = store.update(id, {
      state: 'queued',
      steps: freshSteps(stepsOf(task.kind)),
      progress: 0,
      error: undefined,
      fixAt: undefined,
      address: undefined,
      message: undefined,
      startedAt: undefined,
      endedAt: undefined,
    });
    parts.afterChange(next);
    parts.schedule(id);
    return toView(next);
  }

  function cleanUp(id: string): { taskId: string } {
    const task = mustGet(id);
    const input = task.input;
    if (input.kind === 'build-template' && toView(task).actions.includes('clean-up')) {
      const job = parts.newRecord(
        'clean-up-build',
        task.clusterId,
        task.target,
        cleanUpBuildInput(task),
        task.node ? { node: task.node } : {},
      );
      parts.afterChange(store.update(id, { closedBy: job.id }));
      parts.submit(job);
      return { taskId: job.id };
    }
    if (input.kind !== 'create-proxy' || !toView(task).actions.includes('clean-up')) {
      throw new AppError(
        'permanent',
        `There is nothing to clean up for this task: it is ${task.state}${task.closedBy ? ' and was already cleaned up' : ''}.`,
        'Clean up is for creates that failed, were cancelled or were cut off; delete a running proxy from the inventory.',
      );
    }
    const job = parts.newRecord(
      'clean-up',
      task.clusterId,
      input.name,
      { kind: 'clean-up', ofTaskId: id, uid: input.uid, name: input.name, ...(task.vmid !== undefined ? { vmid: task.vmid } : {}) },
      task.node ? { node: task.node } : {},
    );
    const { sealedCloudInit: _dropped, ...kept } = input;
    parts.afterChange(store.update(id, { closedBy: job.id, input: kept }));
    parts.submit(job);
    return { taskId: job.id };
  }

  return {
    retry: (id: string) => rerun(id, 'retry'),
    resume: (id: string) => rerun(id, 'resume'),
    rerun,
    cleanUp,
  };
}
