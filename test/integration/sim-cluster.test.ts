import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../support/sim-cluster';

describe('the simulated cluster test harness', () => {
  let t: SimCluster;
  beforeAll(async () => {
    t = await startSimCluster();
  });
  afterAll(async () => {
    await t.close();
  });

  it('connects a real client and provider to the simulator over TLS', async () => {
    expect((await t.client.version()).version).toMatch(/^9\./);
    const checks = await t.cluster.provider.check();
    expect(checks.map((c) => c.reason)).toEqual(t.cluster.profile.nodes.map(() => 'Reachable'));
  });
});
