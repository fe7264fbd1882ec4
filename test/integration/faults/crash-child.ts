/**
 * The host process of the crash table: a task manager on the parent's
 * journal directory and simulator, creating one proxy, deleting one, or
 * starting one day-two action (issue 16) on one. The
 * parent kills it with SIGKILL while a step's request is in flight.
 */
import type { ProfileInput } from '../../../main/core';
import type { MigrateInput, PowerInput, ReconfigureInput, RecreateInput } from '../../../shared/channels/tasks';
import { createLogger } from '../../../main/log/logger';
import { childTaskManager } from '../../support/child-task-manager';
import { simCredentialStore } from '../../support/rotate-world';

export interface CrashOrder {
  profile: ProfileInput;
  secret: string;
  journalDir: string;
  action:
    | { kind: 'create'; name: string; machineType: string; template: string }
    | { kind: 'delete'; id: string }
    | { kind: 'day-two'; request: DayTwoRequest }
    /** Issue 24: a credentials rotate; the credential store's file in `dataDir` (shared with the parent). */
    | { kind: 'rotate'; vmid: number; name: string; dataDir: string }
    /** Issue 26: a release for the operator's adoption, or its undo, of a proxy the parent made here. */
    | { kind: 'release'; vmid: number; name: string }
    | { kind: 'reclaim'; vmid: number; name: string };
}

/** Issue 16: the day-two request the child starts (the operator warning is acknowledged: the parent planted the VM). */
export type DayTwoRequest =
  | { op: 'power'; input: PowerInput }
  | { op: 'migrate'; input: MigrateInput }
  | { op: 'reconfigure'; input: ReconfigureInput }
  | { op: 'recreate'; input: RecreateInput };

const order = JSON.parse(process.env.CRASH_ORDER ?? '{}') as CrashOrder;
const { action } = order;
const logger = createLogger({ sinks: [] });
// A rotate's check never answers here: killed at that step, the child dies inside it.
const rotate =
  action.kind === 'rotate'
    ? { credentials: simCredentialStore(() => undefined, action.dataDir, logger), rotateCheck: () => new Promise<never>(() => undefined) }
    : {};
const manager = childTaskManager(order, { budgets: { youngPollMs: 5, oldPollMs: 20, youngForMs: 100 }, updateThrottleMs: 0, ...rotate });
function start(a: CrashOrder['action']): Promise<unknown> {
  if (a.kind === 'create') return manager.createProxies({ clusterId: 'sim', node: 'pv1-1', count: 1, cloudInit: '#cloud-config\n', ...a });
  // The parent planted the VM (not made by this app): the operator warning is acknowledged.
  if (a.kind === 'delete') return manager.deleteProxies('sim', [a.id], true);
  if (a.kind === 'rotate') return manager.rotateCredentials({ clusterId: 'sim', vmid: a.vmid, name: a.name });
  if (a.kind === 'release' || a.kind === 'reclaim') {
    const targets = { clusterId: 'sim', targets: [{ vmid: a.vmid, name: a.name }] };
    return a.kind === 'release' ? manager.release(targets) : Promise.resolve(manager.reclaim(targets));
  }
  const r = a.request;
  if (r.op === 'power') return manager.power(r.input);
  if (r.op === 'migrate') return manager.migrate(r.input);
  if (r.op === 'reconfigure') return manager.reconfigure(r.input);
  return manager.recreate(r.input);
}
void start(action);
