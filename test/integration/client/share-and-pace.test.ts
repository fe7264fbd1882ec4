/** Issue 11: identical concurrent GETs share one request, and the per-node pace, over real HTTPS against the simulator. */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';

let t: SimCluster | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('shared reads', () => {
  it('twenty identical listings at once cost one request; a write in between is never shared across', async () => {
    t = await startSimCluster({ dataset: 'minimal' });
    t.sim.requests.clear();
    const answers = await Promise.all(Array.from({ length: 20 }, () => t!.client.clusterResources('vm')));
    expect(answers.every((a) => a.length === answers[0]!.length)).toBe(true);
    expect(t.sim.requests.count({ route: '/cluster/resources' })).toBe(1);
    // After the answer, a new read goes out (no reuse by default).
    await t.client.clusterResources('vm');
    expect(t.sim.requests.count({ route: '/cluster/resources' })).toBe(2);
    // A read issued after a write does not join one sent before it.
    t.sim.requests.clear();
    const before = t.client.vmConfig('pv1-1', 100);
    await t.client.setVmConfig('pv1-1', 100, { cores: 3 });
    const after = await t.client.vmConfig('pv1-1', 100);
    await before;
    expect(String(after.cores)).toBe('3');
    expect(t.sim.requests.count({ route: '/nodes/{node}/qemu/{vmid}/config', method: 'GET' })).toBeGreaterThanOrEqual(2);
  });

  it('a caller that gives up leaves the others their answer', async () => {
    t = await startSimCluster({ dataset: 'minimal' });
    t.sim.faults.inject({ route: '/cluster/resources' }, { kind: 'delay', ms: 100 }, 1);
    const giveUp = new AbortController();
    const first = t.client.clusterResources('vm', { signal: giveUp.signal });
    const second = t.client.clusterResources('vm');
    giveUp.abort();
    await expect(first).rejects.toThrow(/cancelled/);
    await expect(second).resolves.toBeInstanceOf(Array);
  });
});

describe('per-node pace', () => {
  it('sends at most 3 per window per node, writes before polls, and the wait is not the request timeout', async () => {
    // 100 ms windows, so the test is quick; the request timeout (5 s) is far below the queue of 12 would be at 1 s windows too.
    t = await startSimCluster({ dataset: 'minimal', timeScale: 1, client: { pace: { requests: 3, perMs: 100 }, shareReads: false } });
    await t.client.version();
    t.sim.requests.clear();
    const order: string[] = [];
    const started = performance.now();
    const polls = Array.from({ length: 6 }, () => t!.client.nodeTasks!('pv1-1', { limit: 1 }).then(() => order.push('poll')));
    const write = t.client.setVmConfig('pv1-1', 100, { cores: 2 }).then(() => order.push('write'));
    await Promise.all([...polls, write]);
    // 3 polls leave at once; the write jumps the 3 still queued.
    expect(order.indexOf('write')).toBeLessThanOrEqual(3);
    expect(t.sim.requests.count({ node: 'pv1-1' })).toBe(7);
    // 7 requests at 3 per 100 ms (+ the 50 ms guard): the last leaves two windows after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(t.client.paceStats().pace['pv1-1']?.waited).toBeGreaterThanOrEqual(4);
  });
});
