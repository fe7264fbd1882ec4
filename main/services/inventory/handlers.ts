/** Handlers for the `inventory.*` channels. */
import type { inventoryChannels } from '../../../shared/channels/inventory';
import type { AreaHandlers } from '../../ipc/router';
import type { InventoryService } from './service';

export function inventoryHandlers(inventory: InventoryService): AreaHandlers<typeof inventoryChannels> {
  return {
    'inventory.snapshot': ({ clusterId }) => inventory.snapshot(clusterId),
    'inventory.refresh': async ({ clusterId }) => {
      await inventory.refreshNow(clusterId);
      return { revision: inventory.revision };
    },
  };
}
