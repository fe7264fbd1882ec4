/** The client's per-node request limit, over real HTTPS against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';

describe('requests in flight per node', () => {
  let t: SimCluster;
  beforeAll(async () => {
    // Identical reads would share one request (single-flight.ts): off, so fifty really go to the node.
    t = await startSimCluster({ dataset: 'minimal', client: { shareReads: false } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('fifty calls at once to one node all answer, never more than four at a time on the wire', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.client.vmStatus('pv1-1', 100)));
    expect(answers.every((a) => a.status === 'stopped')).toBe(true);
    expect(t.client.peakRequestsPerNode()['pv1-1']).toBe(4);
  });

  it('calls not addressed to a node (the cluster listing) are not held by it', async () => {
    const listings = await Promise.all(Array.from({ length: 10 }, () => t.client.clusterResources('vm')));
    expect(listings).toHaveLength(10);
    expect(Object.keys(t.client.peakRequestsPerNode())).toEqual(['pv1-1']);
  });
});
