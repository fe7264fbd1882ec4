/**
 * The scheduled checks' settings, read from the app's settings with their
 * defaults: every 5 minutes, on, 4 at once, not paused on battery. Absent
 * fields mean the default, so a settings file written before checks existed
 * reads as "checks on, every 5 minutes".
 */
import type { AppSettings } from '../../../shared/domain/profile';

export const DEFAULT_CHECK_INTERVAL_MINUTES = 5;
export const DEFAULT_CHECK_CONCURRENCY = 4;

export interface CheckSettings {
  intervalMs: number;
  enabled: boolean;
  concurrency: number;
  pauseOnBattery: boolean;
  /** Profile ids whose proxies are not checked on a schedule. */
  offClusters: ReadonlySet<string>;
}

export function checkSettingsOf(settings: AppSettings): CheckSettings {
  return {
    intervalMs: (settings.checkIntervalMinutes ?? DEFAULT_CHECK_INTERVAL_MINUTES) * 60_000,
    enabled: settings.checksEnabled ?? true,
    concurrency: settings.checkConcurrency ?? DEFAULT_CHECK_CONCURRENCY,
    pauseOnBattery: settings.pauseChecksOnBattery ?? false,
    offClusters: new Set(settings.checksOffClusters ?? []),
  };
}
