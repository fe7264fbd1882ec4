/**
 * The child process of the crash test: a task manager on the given journal
 * directory, connected to the parent's simulator, creating two proxies. The
 * parent kills it with SIGKILL mid-create.
 */
import { childTaskManager, type ChildCluster } from '../../../support/child-task-manager';
import { cloudInit, fastBudgets } from './harness';

const manager = childTaskManager(JSON.parse(process.env.CRASH_CHILD ?? '{}') as ChildCluster, { budgets: fastBudgets });
void manager
  .createProxies({ clusterId: 'sim', node: 'pv1-1', template: 't9001', machineType: 'small', name: 'proxy-crash', count: 2, cloudInit })
  .then(() => {
    process.stdout.write('started\n');
  });
