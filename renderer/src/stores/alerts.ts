/**
 * Alerts as main last told us: the open ones and those of the last days,
 * loaded once, then kept current by `alert.raised`, `alert.resolved` and
 * `alert.acknowledged` (from any window);
 * acknowledge; the webhook targets for Settings, each with its last
 * delivery (`alert.delivery`); and the tuning (hold-downs, overrides,
 * snoozes: `alert.tuning` from any window), which main decides and keeps.
 * The count the Nav shows (open and not acknowledged) is derived here, not
 * decided.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AlertTuning, AlertView, SaveWebhookTargetInput, WebhookTarget } from '../../../shared/channels/alerts';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import { notAttached } from './not-attached';

export interface AlertsState {
  /** Every alert known, by id: open first in the view's order, then resolved. */
  alerts: Record<number, AlertView>;
  loaded: boolean;
  error: AppErrorValue | undefined;
  checkIntervalMinutes: number | undefined;
  targets: WebhookTarget[];
  secretStorage: string | undefined;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  reload(): Promise<void>;
  acknowledge(id: number): Promise<AppErrorValue | undefined>;
  loadTargets(): Promise<AppErrorValue | undefined>;
  saveTarget(input: SaveWebhookTargetInput): Promise<Envelope<WebhookTarget>>;
  removeTarget(id: string): Promise<AppErrorValue | undefined>;
  testTarget(id: string): Promise<Envelope<{ message: string }>>;
  /** Undefined until main answered. */
  tuning: AlertTuning | undefined;
  loadTuning(): Promise<void>;
  setTuning(input: Pick<AlertTuning, 'holdDownMinutes' | 'overrides'>): Promise<AppErrorValue | undefined>;
  snooze(input: { clusterId: string; target: string; label: string; minutes?: number }): Promise<AppErrorValue | undefined>;
  unsnooze(clusterId: string, target: string): Promise<AppErrorValue | undefined>;
}

/** The not-attached answer as the error alone, for the actions that answer only an error. */
async function offline(): Promise<AppErrorValue | undefined> {
  const answer = await notAttached<never>();
  return answer.ok ? undefined : answer.error;
}

/** Open and not yet acknowledged: the Nav's badge. */
export function unacknowledgedCount(alerts: Record<number, AlertView>): number {
  let n = 0;
  for (const a of Object.values(alerts)) if (!a.resolvedAt && !a.acknowledgedAt) n++;
  return n;
}

/** Open ones first, each group newest first. */
export function sortedAlerts(alerts: Record<number, AlertView>): AlertView[] {
  return Object.values(alerts).sort(
    (a, b) =>
      Number(a.resolvedAt !== undefined) - Number(b.resolvedAt !== undefined) || b.raisedAt.localeCompare(a.raisedAt) || b.id - a.id,
  );
}

export const useAlerts = create<AlertsState>((set, get) => {
  const put = (alert: AlertView) => set((s) => ({ alerts: { ...s.alerts, [alert.id]: { ...s.alerts[alert.id], ...alert } } }));
  // Each target's latest delivery seen as an event: a targets answer computed before it (in flight when it came, or
  // a target saved elsewhere and not listed yet) must not take it back.
  const deliveries = new Map<string, WebhookTarget['lastDelivery']>();
  const withDeliveries = (targets: WebhookTarget[]) =>
    targets.map((t) => {
      const seen = deliveries.get(t.id);
      return seen && (!t.lastDelivery || t.lastDelivery.at < seen.at) ? { ...t, lastDelivery: seen } : t;
    });
  return {
    alerts: {},
    loaded: false,
    error: undefined,
    checkIntervalMinutes: undefined,
    targets: [],
    secretStorage: undefined,
    api: undefined,
    tuning: undefined,

    attach(api) {
      set({ api });
      const offRaised = api.on['alert.raised'](put);
      const offResolved = api.on['alert.resolved'](put);
      const offAcknowledged = api.on['alert.acknowledged'](put);
      const offTuning = api.on['alert.tuning']((tuning) => set({ tuning }));
      const offDelivery = api.on['alert.delivery']((d) => {
        deliveries.set(d.targetId, d);
        if (!get().targets.some((t) => t.id === d.targetId)) return void get().loadTargets();
        set((s) => ({ targets: withDeliveries(s.targets) }));
      });
      void get().reload();
      void get().loadTargets();
      void get().loadTuning();
      return () => {
        offRaised();
        offResolved();
        offAcknowledged();
        offTuning();
        offDelivery();
        set({ api: undefined });
      };
    },

    async reload() {
      const api = get().api;
      if (!api) return;
      const answer = await api.request['alerts.list']({});
      if (!answer.ok) return void set({ error: answer.error });
      const alerts: Record<number, AlertView> = {};
      for (const a of [...answer.value.recent, ...answer.value.open]) alerts[a.id] = a;
      set({ alerts, loaded: true, error: undefined, checkIntervalMinutes: answer.value.checkIntervalMinutes });
    },

    async acknowledge(id) {
      const api = get().api;
      if (!api) return offline();
      const answer = await api.request['alerts.acknowledge']({ id });
      if (!answer.ok) return answer.error;
      put(answer.value);
      return undefined;
    },

    async loadTargets() {
      const api = get().api;
      if (!api) return offline();
      const answer = await api.request['alerts.targets']({});
      if (!answer.ok) return answer.error;
      set({ targets: withDeliveries(answer.value.targets), secretStorage: answer.value.secretStorage });
      return undefined;
    },

    async saveTarget(input) {
      const api = get().api;
      if (!api) return notAttached();
      const answer = await api.request['alerts.saveTarget'](input);
      if (answer.ok) set((s) => ({ targets: [...s.targets.filter((t) => t.id !== answer.value.id), answer.value] }));
      return answer;
    },

    async removeTarget(id) {
      const api = get().api;
      if (!api) return offline();
      const answer = await api.request['alerts.removeTarget']({ id });
      if (!answer.ok) return answer.error;
      set((s) => ({ targets: s.targets.filter((t) => t.id !== id) }));
      return undefined;
    },

    async testTarget(id) {
      const api = get().api;
      if (!api) return notAttached();
      return api.request['alerts.testTarget']({ id });
    },

    async loadTuning() {
      const answer = await get().api?.request['alerts.tuning']({});
      if (answer?.ok) set({ tuning: answer.value });
    },

    async setTuning(input) {
      const api = get().api;
      if (!api) return offline();
      const answer = await api.request['alerts.setTuning'](input);
      if (!answer.ok) return answer.error;
      set({ tuning: answer.value });
      return undefined;
    },

    async snooze(input) {
      const api = get().api;
      if (!api) return offline();
      const answer = await api.request['alerts.snooze'](input);
      if (!answer.ok) return answer.error;
      set({ tuning: answer.value });
      return undefined;
    },

    async unsnooze(clusterId, target) {
      const api = get().api;
      if (!api) return offline();
      const answer = await api.request['alerts.unsnooze']({ clusterId, target });
      if (!answer.ok) return answer.error;
      set({ tuning: answer.value });
      return undefined;
    },
  };
});
