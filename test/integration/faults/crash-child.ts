/**
 * The host process of the crash table: a task manager on the parent's
 * journal directory and simulator, creating one proxy or deleting one. The
 * parent kills it with SIGKILL while a step's request is in flight.
 */
import { createProvider, parseProfile, type ProfileInput } from '../../../main/core';
import { createPveClient } from '../../../main/core/pve/client';
import { createLogger } from '../../../main/log/logger';
import { MutableClusterDirectory } from '../../../main/services/clusters/cluster';
import { createTaskManager } from '../../../main/services/tasks/task-manager';

export interface CrashOrder {
  profile: ProfileInput;
  secret: string;
  journalDir: string;
  action: { kind: 'create'; name: string; machineType: string; template: string } | { kind: 'delete'; id: string };
}

const order = JSON.parse(process.env.CRASH_ORDER ?? '{}') as CrashOrder;
const logger = createLogger({ sinks: [] });
const profile = parseProfile(order.profile);
const tokenId = profile.token.kind === 'secret' ? profile.token.tokenId : '';
const api = createPveClient({
  baseUrl: profile.url,
  tls: profile.tls,
  token: { kind: 'secret', tokenId, secret: () => order.secret },
  requestTimeoutMs: 60_000,
  logger,
});
const budgets = { youngPollMs: 5, oldPollMs: 20, youngForMs: 100 };
const directory = new MutableClusterDirectory();
directory.set({ id: 'sim', name: 'sim', profile, api, provider: createProvider(profile, { api, budgets }), demo: false });
const manager = createTaskManager({ directory, journalDir: order.journalDir, logger, updateThrottleMs: 0 });
const { action } = order;
void (action.kind === 'create'
  ? manager.createProxies({ clusterId: 'sim', node: 'pv1-1', count: 1, cloudInit: '#cloud-config\n', ...action })
  : manager.deleteProxies('sim', [action.id]));
