/**
 * One check, scheduled or pressed: the proxy-check service's own `test` (the
 * same code as the Test button, the demo's loopback route included), its
 * result turned into a history record, recorded and published as
 * `checks.result`, which the window bus hands to main's own listeners (the
 * alert engine, events/main-bus.ts) before the windows.
 *
 * Issue 24, targets: after the egress check is recorded, the proxy's
 * targets (its tags', then its own) are fetched through it one after the
 * other, in the check's own slot of the schedule (so the schedule's
 * concurrency and pace hold them too) and with its credentials; each fetch
 * is recorded on its own (status, first byte and total ms, the classified
 * reason) and never changes the check's result. A proxy the check could not
 * connect to or talk to (stage connect or handshake) has its targets left
 * alone: each would fail the same way. Test fetches them after it answers.
 *
 * A scheduled check that could not run (the VM stopped or lost its address
 * between the inventory's listing and the check) records nothing: that is
 * the inventory's news, not the proxy's. A check aborted by a pause records
 * nothing either.
 */
import type { ProxyCheckResult, ProxyTestInput } from '../../../shared/channels/proxy-check';
import { toAppErrorValue } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { CheckRecord, HistoryStore, TargetCheckRecord } from '../history/types';
import type { ProxyCheckService } from '../proxy-check/service';
import type { ProxySwitches } from './proxy-switches';
import { DEFAULT_CHECK_ENDPOINT } from './proxy-switches';
import type { CheckEndpoint } from '../../../shared/channels/checks';
import type { ScheduledProxy } from './schedule';

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
  /** Publishes the record as `checks.result` (to main's listeners, then the windows). */
  publish(record: CheckRecord): void;
  /** The protocol and port to use for a proxy Test never checked (the demo knows its presets). */
  endpointHint?(clusterId: string, vmid: number): CheckEndpoint | undefined;
  now(): number;
  logger: Logger;
  /** Issue 24: the URLs to fetch through the proxy after its check (merged from its tags and its own, at most 10). */
  targetsOf?(clusterId: string, vmid: number): readonly string[];
  /** Publishes `checks.targets` once a check's targets are recorded. */
  publishTargets?(event: {
    clusterId: string;
    vmid: number;
    at: number;
    fetched: number;
    failed: { url: string; problem: string }[];
  }): void;
}

/** A target's fetch as the history keeps it: ok when the target answered below 400 through the proxy. */
export function targetRecordOf(
  result: ProxyCheckResult,
  proxy: { clusterId: string; vmid: number },
  url: string,
  at: number,
  origin: TargetCheckRecord['origin'],
): TargetCheckRecord {
  const record: TargetCheckRecord = { clusterId: proxy.clusterId, vmid: proxy.vmid, url, at, ok: result.reachable, origin };
  if (result.httpStatus !== undefined) record.httpStatus = result.httpStatus;
  if (result.firstByteMs !== undefined) record.firstByteMs = result.firstByteMs;
  if (result.latencyMs !== undefined) record.totalMs = result.latencyMs;
  if (result.problem) {
    record.stage = result.problem.stage;
    record.problem = result.problem.message;
  }
  return record;
}

export class CheckRunner {
  private readonly log: Logger;

  constructor(private readonly options: CheckRunnerOptions) {
    this.log = options.logger.child({ part: 'checks' });
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
    this.settle(recordOf(result, target, this.options.now(), 'scheduled'));
    await this.fetchTargets({ clusterId, vmid, ...this.endpointOf(clusterId, vmid) }, result, 'scheduled', signal);
  }

  /** The proxy's targets through it, one at a time, each recorded; never throws. Resolves once all are recorded. */
  async fetchTargets(
    input: ProxyTestInput,
    check: ProxyCheckResult,
    origin: TargetCheckRecord['origin'],
    signal?: AbortSignal,
  ): Promise<void> {
    const urls = this.options.targetsOf?.(input.clusterId, input.vmid) ?? [];
    if (urls.length === 0 || check.problem?.stage === 'connect' || check.problem?.stage === 'handshake') return;
    let recorded = 0;
    const failed: { url: string; problem: string }[] = [];
    for (const url of urls) {
      if (signal?.aborted) break;
      let result: ProxyCheckResult;
      try {
        result = await this.options.proxyCheck.test({ ...input, targetUrl: undefined }, signal, { quiet: true, target: url });
      } catch (e) {
        // The VM went away between the check and its targets: the inventory's news, not the target's.
        this.log.info('target not fetched', {
          cluster: input.clusterId,
          vmid: input.vmid,
          reason: toAppErrorValue(e)?.message ?? String(e),
        });
        break;
      }
      if (signal?.aborted) break;
      try {
        this.options.history.recordTargetCheck(targetRecordOf(result, input, url, this.options.now(), origin));
        recorded++;
        if (!result.reachable) failed.push({ url, problem: result.problem?.message ?? 'It did not answer.' });
      } catch (e) {
        this.log.warn('target fetch not recorded', { cluster: input.clusterId, vmid: input.vmid, reason: String(e) });
      }
    }
    if (recorded > 0)
      this.options.publishTargets?.({ clusterId: input.clusterId, vmid: input.vmid, at: this.options.now(), fetched: recorded, failed });
  }

  /** The Test button: the same check, recorded as manual; its protocol and port become the schedule's for this proxy. */
  async manual(input: ProxyTestInput, signal?: AbortSignal): Promise<ProxyCheckResult> {
    const result = await this.options.proxyCheck.test(input, signal);
    // The window that asked went away mid-check: its answer says nothing about the proxy.
    if (signal?.aborted) return result;
    // A Test against another URL than the setting's says nothing about the scheduled check's target: shown, not kept.
    if (input.targetUrl !== undefined) return result;
    this.options.switches.setEndpoint(input.clusterId, input.vmid, { protocol: input.protocol, port: input.port });
    this.settle(recordOf(result, input, this.options.now(), 'manual'));
    // After the answer: Test shows the check at once; the targets follow as they are fetched (checks.targets).
    void this.fetchTargets({ clusterId: input.clusterId, vmid: input.vmid, protocol: input.protocol, port: input.port }, result, 'manual');
    return result;
  }

  private settle(record: CheckRecord): void {
    try {
      this.options.history.recordCheck(record);
    } catch (e) {
      // The store logs and retries its own write failures; this is a bug's last guard, not a path.
      this.log.warn('check not recorded', { cluster: record.clusterId, vmid: record.vmid, reason: String(e) });
    }
    this.options.publish(record);
  }
}
