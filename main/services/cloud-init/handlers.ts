/**
 * Issue 25 item 1's channel (shared/channels/cloud-init.ts): a document's
 * problems under cloud-init's own schema, for the editors' marks. The same
 * check refuses a request (main/services/tasks/requests/user-data-check.ts).
 */
import type { cloudInitChannels } from '../../../shared/channels/cloud-init';
import { schemaProblems } from '../../../shared/domain/cloud-init-schema';
import type { AreaHandlers } from '../../ipc/router';

export function cloudInitHandlers(): AreaHandlers<typeof cloudInitChannels> {
  return {
    'cloudInit.check': async ({ text, kind }) => schemaProblems(text, kind),
  };
}
