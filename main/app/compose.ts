/**
 * The composition root shared by the Electron shell and the browser-mode
 * host: it builds the services and binds every contract channel to them.
 * Nothing here imports Electron; the shell passes in what only it knows.
 * Long because it is the one place every area is joined (one spread of
 * handlers per area, and the few wires between areas); each area's own
 * building stays in that area.
 */
import type { AppInfo } from '../../shared/contract';
import { createEventBus, type EventBus } from '../ipc/event-bus';
import { createRouter, type Handlers, type Router } from '../ipc/router';
import type { Logger } from '../log/logger';
import { appHandlers } from './app-handlers';
import type { ProxyOrigin, TaskManager } from '../services/tasks/task-manager';
import { createTaskServices, type TaskServicesOptions } from '../services/tasks/task-services';
import { inventoryFeed } from '../services/tasks/address-watch';
import { limitsFromSettings } from '../services/tasks/queue/limits-from-settings';
import { eventNotifier, silentNotifier } from '../ports/notifier';
import { securePrivateDataDir } from '../files/data-dir';
import { fileInventoryMemory } from '../services/inventory/memory';
import { demoCredentials, startDemoCluster } from '../services/demo/demo-cluster';
import { createProfileService, profilesHandlers, type DocumentStoreOpener, type ProfileService } from '../services/profiles';
import type { SecretVault } from '../services/secrets/vault';
import { proxyCredentialsHandlers } from '../services/proxy-credentials/handlers';
import { createProxyCredentialStore, type KnownVm, type ProxyCredentialStore } from '../services/proxy-credentials/store';
import { doctorHandlers, profileFromDirectory, runDoctor, type ResolveProfileConnection } from '../services/doctor';
import { createMonitoring, type MonitoringOptions } from './monitoring';
import { profileCatalogue } from '../services/templates/profile-catalogue';
import { templatesHandlers } from '../services/templates/handlers';
import { createRrdService } from '../services/rrd/service';
import { rrdHandlers } from '../services/rrd/handlers';
import { consoleHandlers } from '../services/console/handlers';
import { networkHandlers } from '../services/network/handlers';
import { vmMetaHandlers } from '../services/vm-meta/handlers';
import { cloudInitHandlers } from '../services/cloud-init/handlers';
import { join } from 'node:path';
import { openHistoryDatabase } from '../services/history/history-db';
import { historyHandlers } from '../services/history/handlers';
import { DEFAULT_HISTORY_RETENTION_DAYS } from '../../shared/domain/profile';
import type { HistoryStore } from '../services/history/types';
import { createCheckService, type CheckService, type CheckServiceOptions } from '../services/checks/service';
import { checksHandlers, recordedTestHandlers } from '../services/checks/handlers';
import type { PowerState } from '../services/checks/power-state';
import { createAlertService, type AlertService, type AlertServiceOptions } from '../services/alerts/service';
import { alertsHandlers } from '../services/alerts/handlers';
import { FAILURE_CONFIRMATION_MS } from '../services/alerts/proxy-rules';
import { DEFAULT_CHECK_INTERVAL_MINUTES } from '../services/checks/check-settings';
import { createExportService } from '../services/exports/service';
import { exportsHandlers } from '../services/exports/handlers';
import { noFileSaver, type FileSaver } from '../ports/file-saver';
import { noFolderSaver, type FolderSaver } from '../ports/folder-saver';
import { createHandoffService } from '../services/handoff/service';
import { handoffHandlers } from '../services/handoff/handlers';
import { readPinnedPem } from '../services/handoff/pinned-certificate';

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
  /** Sleep and battery for the scheduled checks (the Electron shell's powerMonitor); default: none (browser mode). */
  powerState?: PowerState;
  /** Scheduled checks' clock and hints; tests pass a manual clock. */
  checks?: Partial<Pick<CheckServiceOptions, 'timers' | 'endpointHint'>>;
  /** The alerts' clock, tick and webhook policy; tests pass a manual clock and a short backoff. */
  alerts?: Partial<Pick<AlertServiceOptions, 'now' | 'tickMs' | 'sendPolicy' | 'notifier'>>;
  /** Where an export is saved: the desktop's save dialog; default: none (browser mode downloads in the window). */
  fileSaver?: FileSaver;
  /** Issue 26: where a hand-off bundle's folder is saved (the desktop's save dialog); absent: refused in words. */
  folderSaver?: FolderSaver;
}

export interface ComposedApp {
  router: Router;
  bus: EventBus;
  /** Cluster profiles; `profiles.directory` is the ClusterDirectory the other services read. */
  profiles: ProfileService;
  /** The task manager (its limits follow the settings); for tests and the shell. */
  tasks: TaskManager;
  /** Check results, scheduled and manual, in the order they are recorded (the alert engine subscribes). */
  checks: CheckService;
  history: HistoryStore;
  /** The alert engine and its webhook targets (for tests). */
  alerts: AlertService;
  /** Issue 24: the proxies' credentials (the ProxyCredentialLookup the checks and the exports ask). */
  credentials: ProxyCredentialStore;
  dispose(): Promise<void>;
}

export function composeApp(options: ComposeOptions): ComposedApp {
  const { logger } = options;
  const bus = createEventBus(logger.child({ part: 'events' }));
  const startedAt = Date.now();
  const publishStatus = () => bus.publish('app.status', { uptimeSeconds: (Date.now() - startedAt) / 1000, at: new Date().toISOString() });

  // Folders 0700 and files 0600 before anything is read or written; a read-only folder is said, not fatal.
  if (options.dataDir) {
    const { error } = securePrivateDataDir(options.dataDir);
    if (error) logger.warn('data folder could not be made private', { dataDir: options.dataDir, reason: error.code ?? error.message });
  }

  const profiles = createProfileService({
    logger,
    dataDir: options.dataDir,
    vault: options.secretVault,
    openStore: options.openProfileStore,
  });

  // Issue 24: each proxy's username and password, kept with the same secret keeper as the tokens; the checks send
  // them, the create's seed gets them, the drawer reveals them on request. The inventory (built just below) names
  // the VM behind a VMID, so a reused VMID never gets a deleted proxy's credentials.
  const vmOf: { vm?: (clusterId: string, vmid: number) => KnownVm | undefined } = {};
  const credentials = createProxyCredentialStore({
    vault: profiles.vault,
    dataDir: options.dataDir,
    logger,
    tokenStorage: (clusterId) => {
      try {
        return profiles.get(clusterId).token.secretStorage;
      } catch {
        return undefined;
      }
    },
    vm: (clusterId, vmid) => vmOf.vm?.(clusterId, vmid),
  });

  const demo = options.demo ?? 'auto';
  // The demo's own proxies get credentials kept like real ones (issue 24), so Test on the demo sends them.
  if (demo === 'force' || (demo === 'auto' && profiles.isEmpty))
    profiles.startDemo(async () => {
      const cluster = await startDemoCluster(logger);
      // Credentials that cannot be kept (a full or read-only data folder) leave the demo's proxies open: the built-in
      // demo still works, as it does without saved clusters.
      await demoCredentials(cluster, credentials).catch((e: unknown) =>
        logger.warn('the demo proxies ask for no credentials: they could not be kept', { reason: e instanceof Error ? e.message : String(e) }),
      );
      return cluster;
    });

  const resolveProfile = options.doctorProfiles ?? profileFromDirectory(profiles.directory);
  // The inventory asks the task history which marked VMs this app made, and from what; the manager is built just below.
  const taskHistory: {
    proxyOrigin?: (clusterId: string, uid: string) => ProxyOrigin | undefined;
    releasedAs?: (clusterId: string, vmid: number, name: string) => string | undefined;
  } = {};
  const monitoring = createMonitoring(profiles.directory, bus, logger, {
    ...options.monitoring,
    proxyCheck: { defaultTargetUrl: () => profiles.settings().proxyCheckUrl, credentials, ...options.monitoring?.proxyCheck },
    inventory: {
      proxyOrigin: (clusterId, uid) => taskHistory.proxyOrigin?.(clusterId, uid),
      releasedAs: (clusterId, vmid, name) => taskHistory.releasedAs?.(clusterId, vmid, name) !== undefined,
      // Issue 27: marks and addresses kept across restarts, so a restart lists once instead of reading every VM.
      ...(options.dataDir ? { memory: fileInventoryMemory(join(options.dataDir, 'inventory'), logger) } : {}),
      ...options.monitoring?.inventory,
    },
  });
  vmOf.vm = (clusterId, vmid) => {
    const row = monitoring.inventory.vm(clusterId, vmid);
    return row && { ...(row.uid ? { uid: row.uid } : {}), ...(row.name ? { name: row.name } : {}) };
  };
  const taskServices = createTaskServices({
    directory: profiles.directory,
    bus,
    logger,
    // A scan that names no grace period uses Settings' (it used the built-in 15 min whatever Settings said).
    cleanupGraceMinutes: () => profiles.settings().cleanupGraceMinutes,
    dataDir: options.dataDir,
    onOperationFinished: monitoring.refreshAfterOperation,
    // A create's last step waits for the address the inventory reads from the guest agent (no polling of its own).
    addresses: inventoryFeed(bus, monitoring.inventory),
    // Browser mode has no desktop notifications: each one goes to the window as a `tasks.notice` toast.
    ...(options.mode === 'browser' ? { notifier: eventNotifier((n) => bus.publish('tasks.notice', n)) } : {}),
    runDoctor: async (clusterId, signal) => {
      const report = await runDoctor({ profileId: clusterId }, { logger: logger.child({ part: 'doctor' }), signal, resolveProfile });
      const blocking = [report.tls, report.token, report.discovery, report.privileges].find((section) => section.status === 'fail');
      // A reachable cluster with no suitable template yet is a normal first state (a warning), not ready for proxies.
      const hasTemplate = report.discovery.data?.templates.some((t) => t.suitable) ?? false;
      const readyMessage = hasTemplate
        ? 'The cluster is ready for proxies.'
        : 'The cluster is reachable, but no suitable template was found: build one in Templates.';
      return {
        message: report.ready ? readyMessage : (blocking?.message ?? 'The cluster needs attention: see the report.'),
      };
    },
    // A built template lands in the profile's catalogue (issue 14).
    templateBuild: { catalogue: profileCatalogue(profiles) },
    // How much runs at once (Settings, over the defaults); changed live below.
    limits: limitsFromSettings(profiles.settings()),
    // The tasks snapshot's notices carry the profile file's too (a data folder it could not write at start).
    notices: () => profiles.notices(),
    credentials,
    // A credentials rotate's last step is the app's own check, with the new credentials (issue 24).
    rotateCheck: (input, creds, signal) => monitoring.proxyCheck.test(input, signal, { credentials: creds }),
    ...options.tasks,
  });
  taskHistory.proxyOrigin = taskServices.tasks.proxyOrigin;
  taskHistory.releasedAs = taskServices.tasks.releasedAs;

  // Check results, node health and alerts (issue 15): history.sqlite in the data folder, in memory without one.
  const history = openHistoryDatabase({
    file: options.dataDir ? join(options.dataDir, 'history.sqlite') : ':memory:',
    retentionDays: profiles.settings().historyRetentionDays,
    logger: logger.child({ part: 'history' }),
  });
  // Scheduled egress checks over the inventory's running proxies, through the same check as Test.
  const checks = createCheckService({
    inventory: monitoring.inventory,
    proxyCheck: monitoring.proxyCheck,
    history,
    bus,
    settings: () => profiles.settings(),
    dataDir: options.dataDir,
    power: options.powerState,
    // Before any Test: the port the user-data this app put into the seed listens on (proxy-records.ts); else the
    // demo's, which knows which preset each of its proxies runs (its loopback stand-ins speak it).
    endpointHint: (clusterId, vmid) => {
      const uid = monitoring.inventory.vm(clusterId, vmid)?.uid;
      const recorded = uid === undefined ? undefined : taskServices.tasks.proxyEndpoint(clusterId, uid);
      return (
        recorded ??
        profiles.directory
          .list()
          .find((cluster) => cluster.id === clusterId && cluster.demo)
          ?.demoProxies?.endpoint(vmid)
      );
    },
    logger,
    ...options.checks,
  });
  checks.start();
  // Alerts (issue 15): rules over the inventory, node health, this app's tasks and every check result; each raise and
  // resolve goes to the desktop (a toast in browser mode) and to the webhook targets.
  const alerts = createAlertService({
    history,
    bus,
    directory: profiles.directory,
    inventorySnapshot: () => monitoring.inventory.snapshot(),
    inventoryVm: (clusterId, vmid) => monitoring.inventory.vm(clusterId, vmid),
    healthSnapshot: () => monitoring.health.snapshot(),
    settings: () => profiles.settings(),
    updateSettings: (patch) => profiles.updateSettings(patch),
    notifier:
      options.tasks?.notifier ?? (options.mode === 'browser' ? eventNotifier((n) => bus.publish('tasks.notice', n)) : silentNotifier),
    vault: profiles.vault,
    dataDir: options.dataDir,
    logger,
    // A first failed check is confirmed 30 s later instead of at the next interval (the goal: interval + 30 s).
    confirmFailure: (clusterId, vmid) => checks.checkSoon(clusterId, vmid, FAILURE_CONFIRMATION_MS),
    // Issue 24: the expected exits the checks keep, asserted by the alerts' exit rules.
    exitPrefs: checks.exitPrefs,
    ...options.alerts,
  });
  alerts.start();
  // Every settings change sets the task limits again (queued work is served under the new ones at once) and the
  // history's retention (applied at once).
  const offLimits = bus.main.on('settings.changed', (settings) => {
    taskServices.tasks.setLimits(limitsFromSettings(settings));
    history.setRetentionDays(settings.historyRetentionDays ?? DEFAULT_HISTORY_RETENTION_DAYS);
  });

  // One spread per area; the type makes a missing area a compile error.
  const handlers: Handlers = {
    ...appHandlers({ version: options.version, mode: options.mode, runtime: options.runtime }, publishStatus),
    ...profilesHandlers(profiles, bus),
    ...doctorHandlers({ logger: logger.child({ part: 'doctor' }), bus, resolveProfile }),
    ...taskServices.handlers,
    ...monitoring.handlers,
    // Test's result is recorded in the history too: this `proxies.test` replaces the one in monitoring.handlers.
    ...recordedTestHandlers(checks),
    ...checksHandlers(checks),
    ...alertsHandlers(
      alerts,
      () => profiles.settings(),
      () => profiles.settings().checkIntervalMinutes ?? DEFAULT_CHECK_INTERVAL_MINUTES,
    ),
    ...templatesHandlers({ directory: profiles.directory, tasks: taskServices.tasks, catalogue: profileCatalogue(profiles) }),
    // Issue 15: Proxmox's RRD graphs, read when a view opens them.
    ...rrdHandlers(createRrdService({ directory: profiles.directory, logger: logger.child({ part: 'rrd' }) })),
    ...historyHandlers(history),
    ...consoleHandlers(profiles.directory),
    // Issue 24: a node's bridges for the Create and Reconfigure forms.
    ...networkHandlers(profiles.directory),
    // Issue 23: notes and tags, and the cluster's own task history of a proxy.
    // Issue 24: a proxy's credentials, revealed only when the drawer asks for that one proxy.
    ...proxyCredentialsHandlers(credentials, (input) => taskServices.tasks.rotateCredentials(input)),
    ...vmMetaHandlers({ directory: profiles.directory, refreshAfterWrite: (id) => monitoring.inventory.refreshAfterOperation(id) }),
    // Issue 24 §3: the proxies handed to their clients (a URL, a list, a PAC file, …), on the checks' endpoints.
    ...exportsHandlers(
      createExportService({
        inventory: monitoring.inventory,
        endpointOf: (clusterId, vmid) => checks.endpointOf(clusterId, vmid),
        credentials,
        settings: () => profiles.settings(),
        saver: options.fileSaver ?? noFileSaver,
      }),
    ),
    // Issue 26: the bundle that hands proxies to the Kubernetes operator.
    ...handoffHandlers(
      createHandoffService({
        profile: (id) => profiles.get(id),
        profiles: async () => (await profiles.list()).profiles,
        inventory: monitoring.inventory,
        keptSeed: (clusterId, uid) => taskServices.tasks.keptSeed(clusterId, uid),
        credentials,
        settings: () => profiles.settings(),
        tokenLine: (clusterId) => profiles.tokenLine(clusterId),
        saver: options.folderSaver ?? noFolderSaver,
        readPinnedPem,
      }),
      taskServices.tasks,
    ),
    // Issue 25: cloud-init's own schema, for the editors' marks.
    ...cloudInitHandlers(),
  };
  const router = createRouter(handlers, logger.child({ part: 'ipc' }));

  const statusTimer = setInterval(publishStatus, options.statusIntervalMs ?? 5000);
  statusTimer.unref();

  return {
    router,
    bus,
    profiles,
    tasks: taskServices.tasks,
    checks,
    history,
    alerts,
    credentials,
    async dispose() {
      // Queued history first, synchronously: the shell may exit before the awaits below finish.
      history.flush();
      clearInterval(statusTimer);
      offLimits();
      await alerts.close();
      checks.stop();
      monitoring.close();
      await taskServices.close();
      await profiles.close();
      history.close();
    },
  };
}
