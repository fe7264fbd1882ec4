/** Handlers for the proxy check channel. */
import type { proxyCheckChannels } from '../../../shared/channels/proxy-check';
import type { AreaHandlers } from '../../ipc/router';
import type { ProxyCheckService } from './service';

export function proxyCheckHandlers(proxyCheck: ProxyCheckService): AreaHandlers<typeof proxyCheckChannels> {
  return {
    'proxies.test': (input, ctx) => proxyCheck.test(input, ctx.signal),
  };
}
