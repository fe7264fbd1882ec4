/** Handlers for the `tasks.*` channels: thin calls into the task manager. */
import type { tasksChannels } from '../../../shared/channels/tasks';
import type { AreaHandlers } from '../../ipc/router';
import type { TaskManager } from './task-manager';

export function tasksHandlers(tasks: TaskManager): AreaHandlers<typeof tasksChannels> {
  return {
    'tasks.list': () => {
      const notices = tasks.notices();
      return notices.length > 0 ? { tasks: tasks.list(), notices } : { tasks: tasks.list() };
    },
    'tasks.get': ({ id }) => tasks.get(id),
    'tasks.createProxies': (input) => tasks.createProxies(input),
    'tasks.deleteProxies': ({ clusterId, ids, acknowledgeOperatorWarning }) =>
      tasks.deleteProxies(clusterId, ids, acknowledgeOperatorWarning),
    'tasks.power': (input) => tasks.power(input),
    'tasks.powerOffer': ({ id, offer }) => tasks.powerOffer(id, offer),
    'tasks.migrate': (input) => tasks.migrate(input),
    'tasks.reconfigure': (input) => tasks.reconfigure(input),
    'tasks.recreate': (input) => tasks.recreate(input),
    'tasks.cancel': ({ id }) => tasks.cancel(id),
    'tasks.retry': ({ id }) => tasks.retry(id),
    'tasks.resume': ({ id }) => tasks.resume(id),
    'tasks.cleanUp': ({ id }) => tasks.cleanUp(id),
    'tasks.runDoctor': ({ clusterId }) => tasks.runDoctor(clusterId),
    'tasks.log': ({ id, upid, start, limit }) => tasks.readLog(id, upid, start, limit),
    'tasks.watchLog': ({ id, on }) => {
      tasks.watchLog(id, on);
      return {};
    },
  };
}
