/**
 * The task limits the Settings hold (AppSettings.taskLimits, each number optional) over the defaults
 * (slots.ts). The composition root passes them to the task manager at start and again on every
 * `settings.changed`.
 */
import type { AppSettings } from '../../../../shared/domain/profile';
import { defaultLimits, type Limits } from './slots';

export function limitsFromSettings(settings: Pick<AppSettings, 'taskLimits'>): Limits {
  const set = settings.taskLimits ?? {};
  return {
    global: set.global ?? defaultLimits.global,
    perNode: set.perNode ?? defaultLimits.perNode,
    clonesPerStorage: set.clonesPerStorage ?? defaultLimits.clonesPerStorage,
  };
}
