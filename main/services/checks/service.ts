/**
 * Scheduled egress checks (issue 15): the schedule over the inventory's
 * running proxies, the runner that checks and records, the switches kept by
 * the app, the settings, and the power state, joined.
 *
 * Who is checked: a VM carrying the proxy mark (ours or the operator's: the
 * mark is shared), running, with an address, in a cluster whose checks are
 * on, not switched off itself, while checks are on at all. The schedule
 * re-reads that on every inventory delta, settings change and switch.
 */
import type { CheckEndpoint, CheckHistory, LatestChecks, ProxyCheckSummary } from '../../../shared/channels/checks';
import { TARGET_POINTS, TREND_POINTS } from '../../../shared/channels/checks';
import { mergeTargets, parseTargets } from '../../../shared/domain/check-targets';
import { AppError } from '../../errors/app-error';
import type { VmRow } from '../../../shared/channels/inventory';
import type { ProxyCheckResult, ProxyTestInput } from '../../../shared/channels/proxy-check';
import type { AppSettings } from '../../../shared/domain/profile';
import type { EventBus } from '../../ipc/event-bus';
import type { Logger } from '../../log/logger';
import type { HistoryStore } from '../history/types';
import type { InventoryService } from '../inventory/service';
import { realTimers, type Timers } from '../polling/timers';
import type { ProxyCheckService } from '../proxy-check/service';
import { checkSettingsOf, type CheckSettings } from './check-settings';
import { expectedExits, type ExitPrefsPort, type ExitView, type ExpectedExitChange } from './expected-exits';
import { steadyPower, type PowerState } from './power-state';
import { proxyKey, ProxySwitches } from './proxy-switches';
import { CheckRunner } from './runner';
import { CheckSchedule, type ScheduledProxy } from './schedule';

export interface CheckServiceOptions {
  inventory: Pick<InventoryService, 'snapshot' | 'vm'>;
  proxyCheck: ProxyCheckService;
  history: HistoryStore;
  /** Inventory deltas and settings changes come in, `checks.result` goes out. */
  bus: EventBus;
  /** The app's settings now (the schedule follows `settings.changed` after start). */
  settings(): AppSettings;
  /** Where `checks.json` (the per-proxy switches) lives; absent keeps them in memory. */
  dataDir?: string;
  /** Sleep and battery; default: no power events (browser mode). */
  power?: PowerState;
  timers?: Timers;
  /** The protocol and port of a proxy Test never checked, where the app knows better than the default (the demo). */
  endpointHint?(clusterId: string, vmid: number): CheckEndpoint | undefined;
  logger: Logger;
}

export interface CheckService {
  start(): void;
  stop(): void;
  /** `proxies.test`: the Test button's check, recorded as manual. */
  manualTest(input: ProxyTestInput, signal?: AbortSignal): Promise<ProxyCheckResult>;
  latest(clusterId: string): LatestChecks;
  history(input: { clusterId: string; vmid: number; hours: number; limit?: number }): CheckHistory;
  setProxyEnabled(clusterId: string, vmid: number, enabled: boolean): { enabled: boolean };
  /** One extra scheduled check of the proxy within `delayMs` (the alerts confirm a first failure with it). */
  checkSoon(clusterId: string, vmid: number, delayMs: number): void;
  /** The protocol and port the checks use for the proxy (a Test's, else the hint, else Squid's); the exports name the same. */
  endpointOf(clusterId: string, vmid: number): CheckEndpoint;
  /** Issue 24: each proxy's expected exit, and the proposal a good check leaves (the alerts' exit rules read it). */
  exitPrefs: ExitPrefsPort;
  /** `checks.setExpectedExit`: typed (refused in words unless addresses or CIDRs), the proposal confirmed, or cleared. */
  setExpectedExit(input: SetExpectedExitInput): ExitView;
  /** `checks.setTargets`: a proxy's own targets or a tag's, refused in words unless shared/domain/check-targets.ts allows them. */
  setTargets(input: { clusterId: string; vmid?: number | undefined; tag?: string | undefined; targets: readonly string[] }): {
    targets: string[];
  };
  /** Issue 24: what a proxy's checks fetch after the echo (its tags' targets, then its own). */
  targetsOf(clusterId: string, vmid: number): readonly string[];
  /** For tests. */
  readonly schedule: CheckSchedule;
}

export type SetExpectedExitInput = ExpectedExitChange;

/** Why a proxy is not on the schedule now, or undefined when it is. */
function idleReason(row: VmRow | undefined, settings: CheckSettings, clusterId: string, switchedOn: boolean): string | undefined {
  if (!settings.enabled) return 'Scheduled checks are off in Settings.';
  if (settings.offClusters.has(clusterId)) return 'Scheduled checks are off for this cluster in Settings.';
  if (!switchedOn) return 'Scheduled checks are off for this proxy.';
  if (!row) return 'The VM is not in the inventory.';
  if (row.owner !== 'marked') return 'The VM does not carry the proxy mark.';
  if (row.status !== 'running') return 'The VM is not running.';
  if (!row.address) return 'The VM has no address yet.';
  return undefined;
}

export function createCheckService(options: CheckServiceOptions): CheckService {
  const log = options.logger.child({ service: 'checks' });
  const timers = options.timers ?? realTimers;
  const power = options.power ?? steadyPower;
  const switches = new ProxySwitches({ dataDir: options.dataDir, logger: log });
  const exits = expectedExits(switches, log);
  let settings = checkSettingsOf(options.settings());
  const mergedTargets = (clusterId: string, vmid: number) =>
    mergeTargets(
      options.inventory.vm(clusterId, vmid)?.tags ?? [],
      (tag) => switches.tagTargets(clusterId, tag),
      switches.targets(clusterId, vmid),
    );

  const runner = new CheckRunner({
    proxyCheck: options.proxyCheck,
    history: options.history,
    switches,
    publish: (record) => options.bus.publish('checks.result', record),
    endpointHint: options.endpointHint,
    now: () => timers.now(),
    logger: log,
    targetsOf: (clusterId, vmid) => mergedTargets(clusterId, vmid).targets.map((t) => t.url),
    publishTargets: (event) => options.bus.publish('checks.targets', event),
  });

  /** The drawer's targets: each merged one with its last fetches in the span, the lists to edit. */
  function targetsOfHistory(clusterId: string, vmid: number, since: number) {
    const merged = mergedTargets(clusterId, vmid);
    const tags = options.inventory.vm(clusterId, vmid)?.tags ?? [];
    const fetched = merged.targets.length ? options.history.targetChecks(clusterId, vmid, since) : [];
    return {
      targets: merged.targets.map((t) => ({
        url: t.url,
        from: t.from,
        recent: fetched
          .filter((f) => f.url === t.url)
          .slice(-TARGET_POINTS)
          .map(({ clusterId: _c, vmid: _v, ...entry }) => entry),
      })),
      ...(merged.left.length ? { targetsLeft: merged.left } : {}),
      ownTargets: [...switches.targets(clusterId, vmid)],
      tagTargets: [...new Set(tags)].map((tag) => ({ tag, urls: [...(switches.tagTargets(clusterId, tag) ?? [])] })),
    };
  }

  function* targets(): Iterable<ScheduledProxy> {
    if (!settings.enabled) return;
    for (const cluster of options.inventory.snapshot().clusters) {
      if (settings.offClusters.has(cluster.clusterId)) continue;
      for (const row of cluster.vms) {
        if (idleReason(row, settings, cluster.clusterId, switches.enabled(cluster.clusterId, row.vmid)) !== undefined) continue;
        yield { key: proxyKey(cluster.clusterId, row.vmid), clusterId: cluster.clusterId, vmid: row.vmid, name: row.name, node: row.node };
      }
    }
  }

  const schedule = new CheckSchedule({
    timers,
    intervalMs: settings.intervalMs,
    concurrency: settings.concurrency,
    targets,
    run: (target, signal) => runner.scheduled(target, signal),
  });

  const batteryPause = () => {
    if (settings.pauseOnBattery && power.isOnBattery()) schedule.pause('on-battery');
    else schedule.resume('on-battery');
  };

  const offs: (() => void)[] = [];

  return {
    schedule,
    endpointOf: (clusterId, vmid) => runner.endpointOf(clusterId, vmid),
    start() {
      offs.push(
        options.bus.main.on('inventory.delta', (delta) => {
          // A deleted VM's switch must not pass to the next VM given its VMID.
          if (delta.clusterRemoved) switches.forget(delta.clusterId);
          else if (delta.removed.length > 0) switches.forget(delta.clusterId, delta.removed);
          schedule.refresh();
        }),
        options.bus.main.on('settings.changed', (next) => {
          settings = checkSettingsOf(next);
          schedule.configure({ intervalMs: settings.intervalMs, concurrency: settings.concurrency });
          batteryPause();
          schedule.refresh();
        }),
        power.onSuspend(() => {
          log.info('checks paused: the system sleeps');
          schedule.pause('suspended');
        }),
        power.onResume(() => {
          log.info('checks resumed: the system woke');
          schedule.resume('suspended');
        }),
        power.onBattery(batteryPause),
        power.onAC(batteryPause),
      );
      batteryPause();
      schedule.refresh();
      log.info('scheduled checks started', { intervalMinutes: settings.intervalMs / 60_000, enabled: settings.enabled });
    },
    stop() {
      for (const off of offs.splice(0)) off();
      schedule.stop();
    },
    manualTest: (input, signal) => runner.manual(input, signal),
    latest(clusterId) {
      const proxies: ProxyCheckSummary[] = [];
      // TREND_POINTS intervals back from the latest check hold TREND_POINTS checks of a proxy on schedule (an indexed range read).
      const span = TREND_POINTS * settings.intervalMs;
      for (const latest of options.history.latestChecks(clusterId)) {
        const recent = options.history.checks(clusterId, latest.vmid, latest.at - span).slice(-TREND_POINTS);
        proxies.push({
          vmid: latest.vmid,
          latest,
          trend: recent.map((c) => (c.ok && c.latencyMs !== undefined ? c.latencyMs : null)),
        });
      }
      return { clusterId, proxies };
    },
    history({ clusterId, vmid, hours, limit = 500 }) {
      const checks = options.history.checks(clusterId, vmid, timers.now() - hours * 3_600_000).slice(-limit);
      const enabled = switches.enabled(clusterId, vmid);
      const reason = idleReason(options.inventory.vm(clusterId, vmid), settings, clusterId, enabled);
      return {
        checks,
        enabled,
        ...(reason ? { idleReason: reason } : {}),
        endpoint: runner.endpointOf(clusterId, vmid),
        intervalMinutes: settings.intervalMs / 60_000,
        ...exits.view(clusterId, vmid),
        ...targetsOfHistory(clusterId, vmid, timers.now() - hours * 3_600_000),
      };
    },
    exitPrefs: exits.prefs,
    setExpectedExit: exits.change,
    targetsOf: (clusterId, vmid) => mergedTargets(clusterId, vmid).targets.map((t) => t.url),
    setTargets({ clusterId, vmid, tag, targets }) {
      const parsed = parseTargets(targets);
      if (!parsed.ok)
        throw new AppError(
          'invalid-input',
          `${parsed.problem} The targets were not changed.`,
          'Correct the list and save again.',
          'targets',
        );
      if (vmid !== undefined) switches.setTargets(clusterId, vmid, parsed.urls);
      else if (tag !== undefined && tag.trim() !== '') switches.setTagTargets(clusterId, tag, parsed.urls);
      else
        throw new AppError(
          'invalid-input',
          'Name the proxy or the tag whose targets these are.',
          'Open the proxy and save its targets there.',
        );
      log.info('check targets', { cluster: clusterId, ...(vmid !== undefined ? { vmid } : { tag }), count: parsed.urls.length });
      return { targets: parsed.urls };
    },
    checkSoon: (clusterId, vmid, delayMs) => schedule.checkSoon(proxyKey(clusterId, vmid), delayMs),
    setProxyEnabled(clusterId, vmid, enabled) {
      switches.setEnabled(clusterId, vmid, enabled);
      log.info('proxy check switch', { cluster: clusterId, vmid, enabled });
      schedule.refresh();
      return { enabled: switches.enabled(clusterId, vmid) };
    },
  };
}
