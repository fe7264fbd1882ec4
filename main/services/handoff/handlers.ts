/** The hand-off's channels (shared/channels/handoff.ts) over the hand-off service. */
import type { handoffChannels } from '../../../shared/channels/handoff';
import type { AreaHandlers } from '../../ipc/router';
import type { HandoffService } from './service';

export function handoffHandlers(service: HandoffService): AreaHandlers<typeof handoffChannels> {
  return {
    'handoff.preview': (input) => service.preview(input),
    'handoff.save': (input) => service.save(input),
  };
}
