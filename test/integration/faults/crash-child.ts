/**
 * The host process of the crash table: a task manager on the parent's
 * journal directory and simulator, creating one proxy or deleting one. The
 * parent kills it with SIGKILL while a step's request is in flight.
 */
import type { ProfileInput } from '../../../main/core';
import { childTaskManager } from '../../support/child-task-manager';

export interface CrashOrder {
  profile: ProfileInput;
  secret: string;
  journalDir: string;
  action: { kind: 'create'; name: string; machineType: string; template: string } | { kind: 'delete'; id: string };
}

const order = JSON.parse(process.env.CRASH_ORDER ?? '{}') as CrashOrder;
const manager = childTaskManager(order, { budgets: { youngPollMs: 5, oldPollMs: 20, youngForMs: 100 }, updateThrottleMs: 0 });
const { action } = order;
void (action.kind === 'create'
  ? manager.createProxies({ clusterId: 'sim', node: 'pv1-1', count: 1, cloudInit: '#cloud-config\n', ...action })
  : manager.deleteProxies('sim', [action.id]));
