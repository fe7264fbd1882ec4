/**
 * The child process of the crash test: a task manager on the given journal
 * directory, connected to the parent's simulator, creating two proxies. The
 * parent kills it with SIGKILL mid-create.
 */
import { createProvider, parseProfile, type ProfileInput } from '../../../../main/core';
import { createPveClient } from '../../../../main/core/pve/client';
import { createLogger } from '../../../../main/log/logger';
import { MutableClusterDirectory } from '../../../../main/services/clusters/cluster';
import { createTaskManager } from '../../../../main/services/tasks/task-manager';
import { cloudInit, fastBudgets } from './harness';

const env = JSON.parse(process.env.CRASH_CHILD ?? '{}') as { profile: ProfileInput; secret: string; journalDir: string };
const logger = createLogger({ sinks: [] });
const profile = parseProfile(env.profile);
const tokenId = profile.token.kind === 'secret' ? profile.token.tokenId : '';
const api = createPveClient({
  baseUrl: profile.url,
  tls: profile.tls,
  token: { kind: 'secret', tokenId, secret: () => env.secret },
  requestTimeoutMs: 60_000,
  logger,
});
const directory = new MutableClusterDirectory();
directory.set({ id: 'sim', name: 'sim', profile, api, provider: createProvider(profile, { api, budgets: fastBudgets }), demo: false });
const manager = createTaskManager({ directory, journalDir: env.journalDir, logger });
void manager
  .createProxies({ clusterId: 'sim', node: 'pv1-1', template: 't9001', machineType: 'small', name: 'proxy-crash', count: 2, cloudInit })
  .then(() => {
    process.stdout.write('started\n');
  });
