/** Handlers for the `profiles.*` and `settings.*` channels, and the events they push. */
import type { profilesChannels } from '../../../shared/channels/profiles';
import type { EventBus } from '../../ipc/event-bus';
import type { AreaHandlers } from '../../ipc/router';
import type { ProfileService } from './service';

export function profilesHandlers(service: ProfileService, bus: EventBus): AreaHandlers<typeof profilesChannels> {
  service.subscribe(() => {
    void service.list().then((list) => bus.publish('profiles.changed', list));
  });
  return {
    'profiles.list': () => service.list(),
    'profiles.save': (input) => service.save(input),
    'profiles.delete': async ({ id }) => ({ deleted: await service.remove(id) }),
    'profiles.export': ({ ids }) => service.exportProfiles(ids),
    'profiles.import': async ({ json }) => ({ imported: await service.importProfiles(json) }),
    'settings.get': () => service.settings(),
    'settings.set': ({ settings }) => {
      const next = service.updateSettings(settings);
      bus.publish('settings.changed', next);
      return next;
    },
  };
}
