/** Handlers for the `checks.*` channels, and the Test button's `proxies.test`, which records its result too. */
import type { checksChannels } from '../../../shared/channels/checks';
import type { proxyCheckChannels } from '../../../shared/channels/proxy-check';
import type { AreaHandlers } from '../../ipc/router';
import type { CheckService } from './service';

export function checksHandlers(checks: CheckService): AreaHandlers<typeof checksChannels> {
  return {
    'checks.latest': ({ clusterId }) => checks.latest(clusterId),
    'checks.history': (input) => checks.history(input),
    'checks.setProxyEnabled': ({ clusterId, vmid, enabled }) => checks.setProxyEnabled(clusterId, vmid, enabled),
    'checks.setExpectedExit': (input) => checks.setExpectedExit(input),
    'checks.setTargets': (input) => checks.setTargets(input),
  };
}

/** Replaces the proxy-check area's `proxies.test`: the same check, recorded in the history as a manual one. */
export function recordedTestHandlers(checks: CheckService): AreaHandlers<typeof proxyCheckChannels> {
  return {
    'proxies.test': (input, ctx) => checks.manualTest(input, ctx.signal),
  };
}
