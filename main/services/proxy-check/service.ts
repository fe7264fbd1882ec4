/**
 * `proxies.test`: finds the proxy's address in the inventory, then runs the
 * check. A VM that is not running or has no address yet cannot be checked;
 * that is an error with a hint, not a failed check.
 */
import type { ProxyCheckResult, ProxyTestInput } from '../../../shared/channels/proxy-check';
import type { VmRow } from '../../../shared/channels/inventory';
import { AppError } from '../../ipc/app-error';
import type { Logger } from '../../log/logger';
import { checkProxy } from './check';

export interface ProxyCheckOptions {
  /** The inventory's row for the VM, if listed. */
  lookup(clusterId: string, vmid: number): VmRow | undefined;
  logger: Logger;
  /** Fetched through the proxy when the admin sets none; it must answer with the caller's address. */
  defaultTargetUrl?: string;
  timeoutMs?: number;
}

export const DEFAULT_TARGET_URL = 'https://api.ipify.org';

export interface ProxyCheckService {
  test(input: ProxyTestInput, signal?: AbortSignal): Promise<ProxyCheckResult>;
}

export function createProxyCheckService(options: ProxyCheckOptions): ProxyCheckService {
  const log = options.logger.child({ service: 'proxy-check' });
  return {
    async test(input, signal) {
      const row = options.lookup(input.clusterId, input.vmid);
      if (!row)
        throw new AppError(
          'not-found',
          `VM ${input.vmid} is not in the inventory of this cluster.`,
          'Refresh the inventory; the VM may have been deleted.',
        );
      if (row.status !== 'running')
        throw new AppError(
          'permanent',
          `VM ${input.vmid} is not running (${row.state}), so its proxy cannot answer.`,
          'Start the VM, wait for its address, then check again.',
        );
      if (!row.address)
        throw new AppError(
          'transient',
          `VM ${input.vmid} has no address yet: its guest agent has not reported one.`,
          'Wait a minute after start for the agent to report the address, then check again.',
        );
      const targetUrl = input.targetUrl ?? options.defaultTargetUrl ?? DEFAULT_TARGET_URL;
      const result = await checkProxy({
        host: row.address,
        port: input.port,
        protocol: input.protocol,
        targetUrl,
        timeoutMs: options.timeoutMs,
        signal,
      });
      log.info('proxy checked', {
        cluster: input.clusterId,
        vmid: input.vmid,
        protocol: input.protocol,
        reachable: result.reachable,
        latencyMs: result.latencyMs,
        stage: result.problem?.stage,
      });
      return result;
    },
  };
}
