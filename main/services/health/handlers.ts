/** Handlers for the `health.*` channels. */
import type { healthChannels } from '../../../shared/channels/health';
import type { AreaHandlers } from '../../ipc/router';
import type { HealthService } from './service';

export function healthHandlers(health: HealthService): AreaHandlers<typeof healthChannels> {
  return {
    'health.snapshot': ({ clusterId }) => health.snapshot(clusterId),
    'health.check': async ({ clusterId }) => ({ nodes: await health.checkNow(clusterId) }),
  };
}
