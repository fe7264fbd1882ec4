/** The exports' channels (shared/channels/exports.ts) over the export service. */
import type { exportsChannels } from '../../../shared/channels/exports';
import type { AreaHandlers } from '../../ipc/router';
import type { ExportService } from './service';

export function exportsHandlers(service: ExportService): AreaHandlers<typeof exportsChannels> {
  return {
    'proxies.export': (input) => service.render(input),
    'proxies.exportSave': (input) => service.save(input),
  };
}
