/**
 * What a crash test's child process runs: a task manager on the parent's
 * journal folder, over one cluster built from the parent's simulator profile
 * and token secret. The parent SIGKILLs the child mid-step.
 */
import { createProvider, parseProfile, type Budgets, type ProfileInput } from '../../main/core';
import { createPveClient } from '../../main/core/pve/client';
import { createLogger } from '../../main/log/logger';
import { MutableClusterDirectory } from '../../main/services/clusters/cluster';
import { createTaskManager, type TaskManagerOptions } from '../../main/services/tasks/task-manager';

export interface ChildCluster {
  profile: ProfileInput;
  secret: string;
  journalDir: string;
}

export function childTaskManager(
  child: ChildCluster,
  options: { budgets: Partial<Budgets> } & Partial<Pick<TaskManagerOptions, 'updateThrottleMs' | 'credentials' | 'rotateCheck'>>,
) {
  const logger = createLogger({ sinks: [] });
  const profile = parseProfile(child.profile);
  const tokenId = profile.token.kind === 'secret' ? profile.token.tokenId : '';
  const api = createPveClient({
    baseUrl: profile.url,
    tls: profile.tls,
    token: { kind: 'secret', tokenId, secret: () => child.secret },
    requestTimeoutMs: 60_000,
    logger,
  });
  const directory = new MutableClusterDirectory();
  directory.set({
    id: 'sim',
    name: 'sim',
    profile,
    api,
    provider: createProvider(profile, { api, budgets: options.budgets }),
    demo: false,
  });
  const { budgets: _budgets, ...managerOptions } = options;
  return createTaskManager({ directory, journalDir: child.journalDir, logger, ...managerOptions });
}
