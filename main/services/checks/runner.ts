/**
 * One check, scheduled or pressed: the proxy-check service's own `test` (the
 * same code as the Test button, the demo's loopback route included), its
 * result turned into a history record, recorded, published to the window and
 * handed to every `onCheckResult` listener (the alert engine).
 *
 * A scheduled check that could not run (the VM stopped or lost its address
 * between the inventory's listing and the check) records nothing: that is
 * the inventory's news, not the proxy's. A check aborted by a pause records
 * nothing either.
 */
import type { ProxyCheckResult, ProxyTestInput } from '../../../shared/channels/proxy-check';
import { toAppErrorValue } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { CheckRecord, HistoryStore } from '../history/types';
import type { ProxyCheckService } from '../proxy-check/service';
import type { ProxySwitches } from './proxy-switches';
import { DEFAULT_CHECK_ENDPOINT } from './proxy-switches';
import type { CheckEndpoint } from '../../../shared/channels/checks';
import type { ScheduledProxy } from './schedule';

/** Who a check result is about, for listeners that speak of the proxy by name. */
export interface CheckedProxy {
  clusterId: string;
  vmid: number;
  name?: string;
  node: string;
}

export type CheckResultListener = (record: CheckRecord, proxy: CheckedProxy) => void;

export function recordOf(
  result: ProxyCheckResult,
  proxy: { clusterId: string; vmid: number },
  at: number,
  origin: CheckRecord['origin'],
): CheckRecord {
  const record: CheckRecord = { clusterId: proxy.clusterId, vmid: proxy.vmid, at, ok: result.reachable, origin };
  if (result.latencyMs !== undefined) record.latencyMs = result.latencyMs;
  if (result.httpStatus !== undefined) record.httpStatus = result.httpStatus;
  if (result.egressAddress !== undefined) record.egressAddress = result.egressAddress;
  if (result.problem) {
    record.stage = result.problem.stage;
    record.problem = result.problem.message;
  }
  return record;
}

export interface CheckRunnerOptions {
  proxyCheck: ProxyCheckService;
  history: HistoryStore;
  switches: ProxySwitches;
  /** Publishes the record to the window (`checks.result`). */
  publish(record: CheckRecord): void;
  /** The proxy's row now (name and node), for a manual Test's listeners. */
  describe(clusterId: string, vmid: number): CheckedProxy | undefined;
  /** The protocol and port to use for a proxy Test never checked (the demo knows its presets). */
  endpointHint?(clusterId: string, vmid: number): CheckEndpoint | undefined;
  now(): number;
  logger: Logger;
}

export class CheckRunner {
  private readonly listeners = new Set<CheckResultListener>();
  private readonly log: Logger;

  constructor(private readonly options: CheckRunnerOptions) {
    this.log = options.logger.child({ part: 'checks' });
  }

  onCheckResult(listener: CheckResultListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  endpointOf(clusterId: string, vmid: number): CheckEndpoint {
    return this.options.switches.endpoint(clusterId, vmid) ?? this.options.endpointHint?.(clusterId, vmid) ?? DEFAULT_CHECK_ENDPOINT;
  }

  /** A scheduled check: never throws. */
  async scheduled(target: ScheduledProxy, signal: AbortSignal): Promise<void> {
    const { clusterId, vmid } = target;
    let result: ProxyCheckResult;
    try {
      result = await this.options.proxyCheck.test({ clusterId, vmid, ...this.endpointOf(clusterId, vmid) }, signal, { quiet: true });
    } catch (e) {
      const error = toAppErrorValue(e);
      this.log.info('scheduled check not run', { cluster: clusterId, vmid, reason: error?.message ?? String(e) });
      return;
    }
    if (signal.aborted) return;
    const proxy: CheckedProxy = { clusterId, vmid, node: target.node, ...(target.name === undefined ? {} : { name: target.name }) };
    this.settle(recordOf(result, target, this.options.now(), 'scheduled'), proxy);
  }

  /** The Test button: the same check, recorded as manual; its protocol and port become the schedule's for this proxy. */
  async manual(input: ProxyTestInput, signal?: AbortSignal): Promise<ProxyCheckResult> {
    const result = await this.options.proxyCheck.test(input, signal);
    // The window that asked went away mid-check: its answer says nothing about the proxy.
    if (signal?.aborted) return result;
    // A Test against another URL than the setting's says nothing about the scheduled check's target: shown, not kept.
    if (input.targetUrl !== undefined) return result;
    this.options.switches.setEndpoint(input.clusterId, input.vmid, { protocol: input.protocol, port: input.port });
    const proxy = this.options.describe(input.clusterId, input.vmid) ?? { clusterId: input.clusterId, vmid: input.vmid, node: '' };
    this.settle(recordOf(result, input, this.options.now(), 'manual'), proxy);
    return result;
  }

  private settle(record: CheckRecord, proxy: CheckedProxy): void {
    try {
      this.options.history.recordCheck(record);
    } catch (e) {
      // The store logs and retries its own write failures; this is a bug's last guard, not a path.
      this.log.warn('check not recorded', { cluster: record.clusterId, vmid: record.vmid, reason: String(e) });
    }
    this.options.publish(record);
    for (const listener of this.listeners) {
      try {
        listener(record, proxy);
      } catch (e) {
        this.log.warn('check result listener failed', { reason: String(e) });
      }
    }
  }
}
