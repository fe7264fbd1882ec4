/** Handlers for the `app.*` channels: identity and the liveness round trip. */
import type { AppInfo } from '../../shared/contract';
import type { appChannels } from '../../shared/channels/app';
import type { AreaHandlers } from '../ipc/router';

export function appHandlers(info: Omit<AppInfo, 'name'>, publishStatus: () => void): AreaHandlers<typeof appChannels> {
  return {
    'app.version': () => ({ name: 'Egress Desk', ...info }),
    'app.echo': ({ text }) => {
      // The echo doubles as a "push now" request, so a renderer can prove the event path end to end.
      queueMicrotask(publishStatus);
      return { text };
    },
  };
}
