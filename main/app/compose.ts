/**
 * The composition root shared by the Electron shell and the browser-mode
 * host: it builds the services and binds every contract channel to them.
 * Nothing here imports Electron; the shell passes in what only it knows.
 */
import type { AppInfo } from '../../shared/contract';
import { createEventBus, type EventBus } from '../ipc/event-bus';
import { createRouter, type Handlers, type Router } from '../ipc/router';
import type { Logger } from '../log/logger';
import { appHandlers } from './app-handlers';
import type { ProxyOrigin } from '../services/tasks/task-manager';
import { createTaskServices, type TaskServicesOptions } from '../services/tasks/task-services';
import { startDemoCluster } from '../services/demo/demo-cluster';
import { createProfileService, profilesHandlers, type DocumentStoreOpener, type ProfileService } from '../services/profiles';
import type { SecretVault } from '../services/secrets/vault';
import { doctorHandlers, profileFromDirectory, runDoctor, type ResolveProfileConnection } from '../services/doctor';
import { createMonitoring, type MonitoringOptions } from '../services/inventory/monitoring';

export interface ComposeOptions {
  mode: AppInfo['mode'];
  version: string;
  runtime: AppInfo['runtime'];
  logger: Logger;
  /** How often main pushes `app.status`; tests shorten it. */
  statusIntervalMs?: number;
  /** Resolves a saved profile for `doctor.run` reruns; default: the profile service's cluster directory. */
  doctorProfiles?: ResolveProfileConnection;
  /** The task journal, notifier, limits and hooks (main/services/tasks/task-services.ts); all optional. */
  tasks?: TaskServicesOptions;
  /** Where profiles (and the browser-mode vault key) live; absent keeps them in memory. */
  dataDir?: string;
  /** `auto` (default): the simulated demo cluster when no profile is stored; `off` in tests; `force` always. */
  demo?: 'auto' | 'off' | 'force';
  /** The Electron shell's safeStorage vault; plain Node uses a key file in dataDir. */
  secretVault?: SecretVault;
  /** The Electron shell's electron-store; plain Node uses conf. */
  openProfileStore?: DocumentStoreOpener;
  /** Inventory, health and proxy-check settings (cadences, window visibility, timers); all optional. */
  monitoring?: MonitoringOptions;
}

export interface ComposedApp {
  router: Router;
  bus: EventBus;
  /** Cluster profiles; `profiles.directory` is the ClusterDirectory the other services read. */
  profiles: ProfileService;
  dispose(): Promise<void>;
}

export function composeApp(options: ComposeOptions): ComposedApp {
  const { logger } = options;
  const bus = createEventBus(logger.child({ part: 'events' }));
  const startedAt = Date.now();
  const publishStatus = () => bus.publish('app.status', { uptimeSeconds: (Date.now() - startedAt) / 1000, at: new Date().toISOString() });

  const profiles = createProfileService({
    logger,
    dataDir: options.dataDir,
    vault: options.secretVault,
    openStore: options.openProfileStore,
  });
  const demo = options.demo ?? 'auto';
  if (demo === 'force' || (demo === 'auto' && profiles.isEmpty)) profiles.startDemo(() => startDemoCluster(logger));

  const resolveProfile = options.doctorProfiles ?? profileFromDirectory(profiles.directory);
  // The inventory asks the task history which marked VMs this app made, and from what; the manager is built just below.
  const taskHistory: { proxyOrigin?: (clusterId: string, uid: string) => ProxyOrigin | undefined } = {};
  const monitoring = createMonitoring(profiles.directory, bus, logger, {
    ...options.monitoring,
    inventory: { proxyOrigin: (clusterId, uid) => taskHistory.proxyOrigin?.(clusterId, uid), ...options.monitoring?.inventory },
  });
  const taskServices = createTaskServices({
    directory: profiles.directory,
    bus,
    logger,
    dataDir: options.dataDir,
    onOperationFinished: monitoring.refreshAfterOperation,
    runDoctor: async (clusterId, signal) => {
      const report = await runDoctor({ profileId: clusterId }, { logger: logger.child({ part: 'doctor' }), signal, resolveProfile });
      const blocking = [report.tls, report.token, report.discovery, report.privileges].find((section) => section.status === 'fail');
      return {
        message: report.ready ? 'The cluster is ready for proxies.' : (blocking?.message ?? 'The cluster needs attention: see the report.'),
      };
    },
    ...options.tasks,
  });
  taskHistory.proxyOrigin = taskServices.tasks.proxyOrigin;

  // One spread per area; the type makes a missing area a compile error.
  const handlers: Handlers = {
    ...appHandlers({ version: options.version, mode: options.mode, runtime: options.runtime }, publishStatus),
    ...profilesHandlers(profiles, bus),
    ...doctorHandlers({ logger: logger.child({ part: 'doctor' }), bus, resolveProfile }),
    ...taskServices.handlers,
    ...monitoring.handlers,
  };
  const router = createRouter(handlers, logger.child({ part: 'ipc' }));

  const statusTimer = setInterval(publishStatus, options.statusIntervalMs ?? 5000);
  statusTimer.unref();

  return {
    router,
    bus,
    profiles,
    async dispose() {
      clearInterval(statusTimer);
      monitoring.close();
      await taskServices.close();
      await profiles.close();
    },
  };
}
