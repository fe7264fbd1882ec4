/** Handlers for the `alerts.*` channels. */
import type { AlertRuleView, alertsChannels } from '../../../shared/channels/alerts';
import { alertRuleCatalogue, alertThresholds, defaultAlertThresholds } from '../../../shared/domain/alert-rules';
import type { AppSettings } from '../../../shared/domain/profile';
import type { AreaHandlers } from '../../ipc/router';
import type { AlertService } from './service';

export function ruleViews(settings: AppSettings): AlertRuleView[] {
  const t = alertThresholds(settings.alertRules);
  return alertRuleCatalogue.map((rule) => ({
    id: rule.id,
    title: rule.title,
    explains: rule.explains,
    enabled: t.enabled[rule.id],
    ...(rule.threshold
      ? {
          threshold: {
            key: rule.threshold,
            value: t[rule.threshold],
            defaultValue: defaultAlertThresholds[rule.threshold],
            unit: rule.unit ?? '',
          },
        }
      : {}),
  }));
}

export function alertsHandlers(
  service: AlertService,
  settings: () => AppSettings,
  checkIntervalMinutes: () => number | undefined,
): AreaHandlers<typeof alertsChannels> {
  return {
    'alerts.list': () => {
      const minutes = checkIntervalMinutes();
      return { ...service.list(), ...(minutes !== undefined ? { checkIntervalMinutes: minutes } : {}) };
    },
    'alerts.acknowledge': ({ id }) => service.acknowledge(id),
    'alerts.rules': () => ({ rules: ruleViews(settings()) }),
    'alerts.setRules': ({ rules }) => ({ rules: ruleViews(service.setRules(rules)) }),
    'alerts.targets': async () => ({ targets: service.targetViews(), secretStorage: await service.targets.secretStorage() }),
    'alerts.saveTarget': (input) => service.targets.save(input),
    'alerts.removeTarget': ({ id }) => ({ removed: service.targets.remove(id) }),
    'alerts.tuning': () => service.tuning(),
    'alerts.setTuning': (input) => service.setTuning(input),
    'alerts.snooze': (input) => service.snooze(input),
    'alerts.unsnooze': ({ clusterId, target }) => service.unsnooze(clusterId, target),
    'alerts.testTarget': async ({ id }) => {
      const { status, attempts } = await service.delivery.test(id);
      return { message: `Sent: the server answered ${status}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}.` };
    },
  };
}
