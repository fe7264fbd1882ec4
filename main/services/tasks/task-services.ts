/**
 * The task manager and the seed cleanup, built for the composition root:
 * journal location, events onto the bus, and the handlers of both areas.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventBus } from '../../ipc/event-bus';
import type { AreaHandlers } from '../../ipc/router';
import type { Logger } from '../../log/logger';
import type { cleanupChannels } from '../../../shared/channels/cleanup';
import type { placementChannels } from '../../../shared/channels/placement';
import type { tasksChannels } from '../../../shared/channels/tasks';
import { cleanupHandlers } from '../cleanup/handlers';
import { placementHandlers } from '../placement/handlers';
import { createCleanupService } from '../cleanup/service';
import type { ClusterDirectory } from '../clusters/cluster';
import { tasksHandlers } from './handlers';
import { createTaskManager, type TaskManagerOptions } from './task-manager';

/** What the shell may add: all optional. */
export type TaskServicesOptions = Partial<Omit<TaskManagerOptions, 'directory' | 'logger' | 'publish'>>;

export interface TaskServicesSetup extends TaskServicesOptions {
  directory: ClusterDirectory;
  bus: EventBus;
  logger: Logger;
  /** The app's data directory; the journal goes in `<dataDir>/tasks`. */
  dataDir?: string | undefined;
  /** The cleanup's grace period when a scan asks for none: the app's setting. */
  cleanupGraceMinutes?: () => number;
}

export function createTaskServices(setup: TaskServicesSetup) {
  // Without a data directory (tests, a throwaway browser session) the journal lives in a fresh temporary one.
  const journalDir = setup.journalDir ?? (setup.dataDir ? join(setup.dataDir, 'tasks') : mkdtempSync(join(tmpdir(), 'egress-desk-tasks-')));
  const tasks = createTaskManager({
    ...setup,
    journalDir,
    publish: (e) => (e.name === 'tasks.update' ? setup.bus.publish('tasks.update', e.payload) : setup.bus.publish('tasks.log', e.payload)),
  });
  const cleanup = createCleanupService({
    directory: setup.directory,
    tasks,
    ...(setup.cleanupGraceMinutes ? { graceMinutes: setup.cleanupGraceMinutes } : {}),
  });
  // The placement channel (where a create can land) sits with the tasks that create: the same directory, read-only.
  const handlers: AreaHandlers<typeof tasksChannels & typeof cleanupChannels & typeof placementChannels> = {
    ...tasksHandlers(tasks),
    ...cleanupHandlers(cleanup),
    ...placementHandlers(setup.directory),
  };
  return { tasks, cleanup, handlers, close: () => tasks.close() };
}
