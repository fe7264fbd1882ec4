/** Handlers for the `rrd.*` channels. */
import type { rrdChannels } from '../../../shared/channels/rrd';
import type { AreaHandlers } from '../../ipc/router';
import type { RrdService } from './service';

export function rrdHandlers(rrd: RrdService): AreaHandlers<typeof rrdChannels> {
  return {
    'rrd.vm': (input) => rrd.vm(input),
    'rrd.node': (input) => rrd.node(input),
  };
}
