/** Handlers for the `cleanup.*` channels. */
import type { cleanupChannels } from '../../../shared/channels/cleanup';
import type { AreaHandlers } from '../../ipc/router';
import type { CleanupService } from './service';

export function cleanupHandlers(cleanup: CleanupService): AreaHandlers<typeof cleanupChannels> {
  return {
    'cleanup.scan': ({ clusterId, graceMinutes }, ctx) => cleanup.scan(clusterId, graceMinutes, ctx.signal),
    'cleanup.deleteSeeds': ({ clusterId, seeds, dryRun, graceMinutes }) => cleanup.deleteSeeds(clusterId, seeds, dryRun, graceMinutes),
    'cleanup.deleteTemplateBuilds': ({ clusterId, builds }) => cleanup.deleteTemplateBuilds(clusterId, builds),
  };
}
