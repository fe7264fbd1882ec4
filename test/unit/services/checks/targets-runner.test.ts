/**
 * Issue 24, targets in the check runner, over a hand-written proxy check and
 * the real history database in memory: after the egress check is recorded,
 * each target is fetched through the same proxy (its endpoint, the target's
 * URL) and recorded apart; a failing target leaves the check's record as it
 * was; a proxy the check could not reach has its targets left alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyCheckResult, ProxyTestInput } from '../../../../shared/channels/proxy-check';
import { createMemoryLogger } from '../../../../main/log/logger';
import { ProxySwitches } from '../../../../main/services/checks/proxy-switches';
import { CheckRunner } from '../../../../main/services/checks/runner';
import { openHistoryDatabase, type HistoryDatabase } from '../../../../main/services/history/history-db';

const shop = 'http://shop.example/';
const gone = 'https://gone.example/';
let history: HistoryDatabase;
afterEach(() => history.close());

function runner(egress: 'works' | 'unreachable') {
  const logger = createMemoryLogger();
  history = openHistoryDatabase({ file: ':memory:', logger, now: () => 1000 });
  const asked: { input: ProxyTestInput; target?: string }[] = [];
  const published: unknown[] = [];
  const base = { address: '10.0.0.5', port: 3128, protocol: 'http' as const, targetUrl: 'http://echo/ip' };
  const run = new CheckRunner({
    proxyCheck: {
      async test(input, _signal, how): Promise<ProxyCheckResult> {
        asked.push({ input, ...(how?.target ? { target: how.target } : {}) });
        if (!how?.target)
          return egress === 'works'
            ? { ...base, reachable: true, latencyMs: 20, httpStatus: 200, egressAddress: '203.0.113.9' }
            : { ...base, reachable: false, problem: { kind: 'transient', stage: 'connect', message: 'No answer.', hint: 'Look.' } };
        return how.target === shop
          ? { ...base, targetUrl: shop, reachable: true, httpStatus: 200, firstByteMs: 11, latencyMs: 14 }
          : {
              ...base,
              targetUrl: gone,
              reachable: false,
              problem: { kind: 'transient', stage: 'request', message: 'It could not reach gone.example:443.', hint: 'Look.' },
            };
      },
    },
    history,
    switches: new ProxySwitches({ logger }),
    publish: () => undefined,
    now: () => 1000,
    logger,
    targetsOf: () => [shop, gone],
    publishTargets: (e) => published.push(e),
  });
  return { run, asked, published };
}

const proxy = { key: 'c/105', clusterId: 'c', vmid: 105, name: 'edge-1', node: 'pve1' };

describe('targets after a scheduled check', () => {
  it('fetches each through the proxy and records it apart; a failing one leaves the check as it was', async () => {
    const { run, asked, published } = runner('works');
    await run.scheduled(proxy, new AbortController().signal);
    expect(asked.map((a) => a.target ?? 'echo')).toEqual(['echo', shop, gone]);
    expect(asked.every((a) => a.input.port === 3128 && a.input.protocol === 'http')).toBe(true);
    expect(history.checks('c', 105, 0).map((c) => c.ok)).toEqual([true]);
    expect(history.targetChecks('c', 105, 0)).toEqual([
      { clusterId: 'c', vmid: 105, url: shop, at: 1000, ok: true, httpStatus: 200, firstByteMs: 11, totalMs: 14, origin: 'scheduled' },
      {
        clusterId: 'c',
        vmid: 105,
        url: gone,
        at: 1000,
        ok: false,
        stage: 'request',
        problem: 'It could not reach gone.example:443.',
        origin: 'scheduled',
      },
    ]);
    expect(published).toEqual([
      { clusterId: 'c', vmid: 105, at: 1000, fetched: 2, failed: [{ url: gone, problem: 'It could not reach gone.example:443.' }] },
    ]);
  });

  it('leaves the targets alone when the check could not reach the proxy', async () => {
    const { run, asked, published } = runner('unreachable');
    await run.scheduled(proxy, new AbortController().signal);
    expect(asked.map((a) => a.target ?? 'echo')).toEqual(['echo']);
    expect(history.targetChecks('c', 105, 0)).toEqual([]);
    expect(published).toEqual([]);
  });
});
