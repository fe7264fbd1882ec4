/**
 * The alerts, joined: the engine over the history database, the rules fed
 * from the event bus (inventory deltas, node health, this app's tasks,
 * settings), from the egress checks' results and from the template watch
 * (the catalogue templates' configs judged by the doctor's rules), and the
 * delivery of every raise and resolve (desktop notification, webhooks,
 * `alert.*` events).
 *
 * At start the rules are evaluated once over what the inventory and the
 * health service already hold, so an alert left open by the previous run
 * whose condition cleared meanwhile resolves without waiting for a change.
 *
 * Long because it is the one place the alerts' parts are joined (engine, rules, delivery, tuning, targets) and each
 * command that changes alert state (acknowledge, snooze, the tuning) must publish what every window follows; the
 * rules and the tuning's logic live in their own files.
 */
import type { AlertTuning, AlertView, WebhookDelivery, WebhookTarget } from '../../../shared/channels/alerts';
import type { HealthSnapshot } from '../../../shared/channels/health';
import type { InventoryDelta, InventorySnapshot, VmRow } from '../../../shared/channels/inventory';
import type { TaskView } from '../../../shared/channels/tasks';
import { alertThresholds, AlertRuleId, type AlertRuleSettings } from '../../../shared/domain/alert-rules';
import type { AppSettings } from '../../../shared/domain/profile';
import type { EventPayload } from '../../../shared/contract';
import { AppError } from '../../errors/app-error';
import type { EventBus } from '../../ipc/event-bus';
import type { Logger } from '../../log/logger';
import type { ClusterDirectory } from '../clusters/cluster';
import type { AlertRecord, CheckRecord, HistoryStore } from '../history/types';
import type { Notifier } from '../../ports/notifier';
import { ClusterRules } from './cluster-rules';
import { createAlertDelivery, type AlertDelivery } from './delivery';
import { AlertEngine } from './engine';
import { ExitRules, noExitPrefs, type ExitPrefs } from './exit-rules';
import { ProxyRules, type CheckedProxy } from './proxy-rules';
import { TargetRules } from './target-rules';
import { createWebhookAgent, type SendPolicy } from './webhook-sender';
import { TemplateRules } from './template-rules';
import { createTemplateWatch, type TemplateWatch } from './template-watch';
import { createWebhookTargetStore, type WebhookTargetStore } from './webhook-targets';
import { liveTuning, tuningFor } from './tuning';
import { createTuningStore } from './tuning-store';
import type { SecretVault } from '../secrets/vault';

/** Tasks of this app after which a proxy is expected not to run (until it runs again). */
const STOPPING_KINDS: ReadonlySet<TaskView['kind']> = new Set(['stop-proxy', 'shutdown-proxy', 'reboot-proxy', 'delete-proxy']);
const RECENT_MS = 7 * 24 * 3600_000;
const RECENT_LIMIT = 200;

export interface AlertServiceOptions {
  history: HistoryStore;
  bus: EventBus;
  directory: ClusterDirectory;
  /** What is already known at start. */
  inventorySnapshot: () => InventorySnapshot;
  /** One VM's inventory row, to name the proxy a check result is about. */
  inventoryVm: (clusterId: string, vmid: number) => VmRow | undefined;
  healthSnapshot: () => HealthSnapshot;
  settings: () => AppSettings;
  updateSettings: (patch: Partial<AppSettings>) => AppSettings;
  notifier: Notifier;
  vault: SecretVault;
  dataDir?: string;
  logger: Logger;
  now?: () => number;
  /** How often pending conditions (a node unreachable for 60 s) are looked at; default 5 s. */
  tickMs?: number;
  /** One more check of a proxy soon after a failure short of the threshold (the checks service's checkSoon). */
  confirmFailure?: (clusterId: string, vmid: number) => void;
  /** Issue 24: each proxy's expected exit and the proposal a good check leaves (the checks service's exitPrefs). */
  exitPrefs?: ExitPrefs;
  /** Webhook timeouts and retries; tests shorten the backoff. */
  sendPolicy?: SendPolicy;
  /** How often each cluster's catalogue templates are read and judged; default 10 min (template-watch.ts). */
  templateCheckMs?: number;
}

export interface AlertService {
  start(): void;
  list(): { open: AlertView[]; recent: AlertView[] };
  acknowledge(id: number): AlertView;
  setRules(rules: AlertRuleSettings): AppSettings;
  /** The hold-downs, overrides and live snoozes (issue 23). */
  tuning(): AlertTuning;
  setTuning(next: Pick<AlertTuning, 'holdDownMinutes' | 'overrides'>): AlertTuning;
  /** Keeps a target quiet for `minutes` (absent: muted), acknowledging its open alerts. */
  snooze(input: { clusterId: string; target: string; label: string; minutes?: number }): AlertTuning;
  unsnooze(clusterId: string, target: string): AlertTuning;
  /** The webhook targets, each with the outcome of its last alert post in this run. */
  targetViews(): WebhookTarget[];
  readonly targets: WebhookTargetStore;
  readonly delivery: AlertDelivery;
  /** The catalogue templates' verdicts (tests call checkNow). */
  readonly templates: TemplateWatch;
  /** Raises what became due now (the timer calls it; tests call it with their clock). */
  tick(): void;
  close(): Promise<void>;
}

export function viewOf(alert: AlertRecord): AlertView {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: alert.id,
    rule: alert.rule,
    clusterId: alert.clusterId,
    target: alert.target,
    label: alert.label,
    raisedAt: iso(alert.raisedAt),
    ...(alert.resolvedAt !== undefined ? { resolvedAt: iso(alert.resolvedAt) } : {}),
    ...(alert.acknowledgedAt !== undefined ? { acknowledgedAt: iso(alert.acknowledgedAt) } : {}),
    reason: alert.reason,
    hint: alert.hint,
  };
}

export function createAlertService(options: AlertServiceOptions): AlertService {
  const log = options.logger.child({ service: 'alerts' });
  const now = options.now ?? Date.now;
  const thresholds = () => alertThresholds(options.settings().alertRules);
  const clusterName = (clusterId: string) => options.directory.list().find((c) => c.id === clusterId)?.name ?? clusterId;
  const agent = createWebhookAgent(options.sendPolicy?.timeoutMs);
  const targets = createWebhookTargetStore({ dataDir: options.dataDir, vault: options.vault, logger: log });
  const tuningStore = createTuningStore({ dataDir: options.dataDir, logger: log });
  /** The last alert post per webhook target in this run: a delivery that fails is shown, not only logged. */
  const lastDelivery = new Map<string, WebhookDelivery>();
  const delivery = createAlertDelivery({
    onOutcome: (outcome) => {
      lastDelivery.set(outcome.targetId, outcome);
      options.bus.publish('alert.delivery', outcome);
    },
    notifier: options.notifier,
    targets,
    dispatcher: agent,
    clusterName,
    logger: log,
    now,
    ...(options.sendPolicy ? { policy: options.sendPolicy } : {}),
  });
  const engine = new AlertEngine({
    store: options.history,
    now,
    tuning: (subject) => tuningFor(tuningStore.get(), subject, now()),
    onEvent: (event) => {
      log.info(`alert ${event.kind}`, { rule: event.alert.rule, cluster: event.alert.clusterId, target: event.alert.target });
      options.bus.publish(event.kind === 'raised' ? 'alert.raised' : 'alert.resolved', viewOf(event.alert));
      delivery.deliver(event);
    },
  });
  const lastGoodBefore = (clusterId: string, vmid: number, at: number) =>
    options.history
      .checks(clusterId, vmid, at - RECENT_MS, at - 1)
      .filter((c) => c.ok && c.egressAddress)
      .at(-1);
  const proxies = new ProxyRules(engine, thresholds, lastGoodBefore, options.confirmFailure);
  const exits = new ExitRules(
    engine,
    thresholds,
    options.exitPrefs ?? noExitPrefs,
    () => options.settings().alertRules?.distinctExitTags ?? [],
  );
  const targetRules = new TargetRules(engine, thresholds, (clusterId, vmid) => options.inventoryVm(clusterId, vmid)?.name);
  const cluster = new ClusterRules(engine, thresholds, clusterName);
  const templates = createTemplateWatch({
    directory: options.directory,
    rules: new TemplateRules(engine, thresholds, clusterName),
    logger: log,
    ...(options.templateCheckMs !== undefined ? { intervalMs: options.templateCheckMs } : {}),
  });
  const seedStorageOf = (clusterId: string) => options.directory.list().find((c) => c.id === clusterId)?.profile.isoStorage;
  const unsubscribe: (() => void)[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed: Promise<void> | undefined;

  function onDelta(delta: InventoryDelta): void {
    for (const row of [...delta.added, ...delta.changed]) proxies.observeVm(row);
    for (const vmid of delta.removed) {
      proxies.removed(delta.clusterId, vmid);
      exits.removed(delta.clusterId, vmid);
    }
    const seed = seedStorageOf(delta.clusterId);
    if (delta.nodes && seed) cluster.observeNodes(delta.clusterId, delta.nodes, seed);
  }

  function onHealth(update: EventPayload<'health.update'>): void {
    templates.observeHealth(update.clusterId, update.latest.reason);
    cluster.observeNodeHealth({
      clusterId: update.clusterId,
      node: update.node,
      reason: update.latest.reason,
      message: update.latest.message,
    });
  }

  /** An egress check's result (scheduled or Test), as the windows get it: judged about the proxy its row names. */
  function observeCheck(record: CheckRecord): void {
    const row = options.inventoryVm(record.clusterId, record.vmid);
    const proxy: CheckedProxy = {
      clusterId: record.clusterId,
      vmid: record.vmid,
      node: row?.node ?? '',
      ...(row?.name ? { name: row.name } : {}),
      ...(row?.tags ? { tags: row.tags } : {}),
    };
    try {
      proxies.observeCheck(record, proxy);
      exits.observeCheck(record, proxy);
    } catch (err) {
      log.warn('alert evaluation of a check failed', { error: (err as Error).message });
    }
  }

  /** Rules switched off resolve what they hold open. */
  function applySwitches(): void {
    const t = thresholds();
    for (const rule of AlertRuleId.options) {
      if (t.enabled[rule]) continue;
      for (const alert of engine.openOf(rule)) engine.clear(rule, alert.clusterId, alert.target);
    }
  }

  function evaluateKnown(): void {
    try {
      for (const inv of options.inventorySnapshot().clusters)
        onDelta({ revision: 1, clusterId: inv.clusterId, added: inv.vms, changed: [], removed: [], nodes: inv.nodes });
      for (const c of options.healthSnapshot().clusters)
        for (const n of c.nodes)
          if (n.latest)
            cluster.observeNodeHealth({ clusterId: c.clusterId, node: n.node, reason: n.latest.reason, message: n.latest.message });
    } catch (err) {
      log.warn('first alert evaluation incomplete', { error: (err as Error).message });
    }
    applySwitches();
  }

  /** Saves the tuning, tells every window, and applies it at once (an override resolves, an unsnooze raises). */
  function commitTuning(next: AlertTuning): AlertTuning {
    tuningStore.save(liveTuning(next, now()));
    const live = liveTuning(tuningStore.get(), now());
    options.bus.publish('alert.tuning', live);
    engine.tick();
    return live;
  }

  function acknowledge(id: number): AlertView {
    const acknowledged = options.history.acknowledgeAlert(id, now());
    if (!acknowledged) throw new AppError('not-found', 'That alert no longer exists.', 'Refresh the Alerts view.');
    let view = viewOf(acknowledged);
    // Acknowledging a changed address accepts it: the alert resolves, and the new address is the one compared with.
    if (acknowledged.rule === 'egress-address-changed' && acknowledged.resolvedAt === undefined) {
      const vmid = Number(acknowledged.target.replace(/^vm:/, ''));
      proxies.accepted(acknowledged.clusterId, vmid);
      const resolved = options.history.recentAlerts(acknowledged.raisedAt - 1, RECENT_LIMIT).find((a) => a.id === acknowledged.id);
      if (resolved) view = viewOf({ ...resolved, acknowledgedAt: acknowledged.acknowledgedAt });
    }
    // Every window (the other Electron window, a browser-mode page) takes it out of its list's count and its Nav badge.
    options.bus.publish('alert.acknowledged', view);
    return view;
  }

  return {
    targets,
    delivery,
    templates,
    start() {
      if (timer) return;
      unsubscribe.push(
        options.bus.main.on('inventory.delta', onDelta),
        options.bus.main.on('health.update', onHealth),
        options.bus.main.on('settings.changed', applySwitches),
        options.bus.main.on('checks.result', observeCheck),
        options.bus.main.on('checks.targets', (event) => targetRules.observeTargets(event)),
        options.bus.main.on('tasks.update', (task) => {
          if (STOPPING_KINDS.has(task.kind) && task.vmid !== undefined) proxies.stoppedByThisApp(task.clusterId, task.vmid);
        }),
      );
      evaluateKnown();
      templates.start();
      timer = setInterval(() => engine.tick(), options.tickMs ?? 5_000);
      timer.unref();
    },
    list() {
      const open = options.history.openAlerts().sort((a, b) => b.raisedAt - a.raisedAt);
      const recent = options.history.recentAlerts(now() - RECENT_MS, RECENT_LIMIT);
      return { open: open.map(viewOf), recent: recent.map(viewOf) };
    },
    acknowledge,
    setRules(rules) {
      const next = options.updateSettings({ alertRules: rules });
      options.bus.publish('settings.changed', next);
      return next;
    },
    tuning: () => liveTuning(tuningStore.get(), now()),
    setTuning: (next) => commitTuning({ ...tuningStore.get(), ...next }),
    snooze(input) {
      const until = input.minutes !== undefined ? new Date(now() + input.minutes * 60_000).toISOString() : undefined;
      const current = tuningStore.get();
      const others = current.snoozes.filter((s) => !(s.clusterId === input.clusterId && s.target === input.target));
      const live = commitTuning({
        ...current,
        snoozes: [...others, { clusterId: input.clusterId, target: input.target, label: input.label, ...(until ? { until } : {}) }],
      });
      // Snoozed means seen: its open alerts leave the count and their notices go.
      for (const alert of options.history.openAlerts())
        if (alert.clusterId === input.clusterId && alert.target === input.target && alert.acknowledgedAt === undefined)
          acknowledge(alert.id);
      return live;
    },
    unsnooze(clusterId, target) {
      const current = tuningStore.get();
      return commitTuning({ ...current, snoozes: current.snoozes.filter((s) => !(s.clusterId === clusterId && s.target === target)) });
    },
    targetViews: () =>
      targets.list().map((t) => {
        const last = lastDelivery.get(t.id);
        return last ? { ...t, lastDelivery: last } : t;
      }),
    tick: () => engine.tick(),
    close() {
      // Idempotent: the shell and a test may both dispose the app, and undici refuses to close a pool twice.
      closed ??= (async () => {
        if (timer) clearInterval(timer);
        timer = undefined;
        templates.stop();
        unsubscribe.splice(0).forEach((u) => u());
        await delivery.close();
        await agent.close();
      })();
      return closed;
    },
  };
}
