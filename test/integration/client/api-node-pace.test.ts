/**
 * Issue 11: calls that name no node (cluster listings, nextid) load the
 * pveproxy of the node the URL reaches; the client learns that node from
 * GET /cluster/status (`local`) and paces those calls with the node's own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';

let t: SimCluster | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the node the URL reaches', () => {
  it('is learned from the cluster status, and listings that name no node wait for its window', async () => {
    // A long window: the test only looks at who waited, never at how long.
    t = await startSimCluster({ dataset: 'minimal', client: { pace: { requests: 3, perMs: 60_000, guardMs: 0 }, shareReads: false } });
    // The minimal data set's first node answers its URL (the simulator marks it `local`, as Proxmox marks the
    // node that answers: pve-api apidata.js, GET /cluster/status).
    expect(await t.client.apiNode()).toBe('pv1-1');
    // Reads may use 2 sends of a window of 3 (one is kept for writes): a read on pv1-1, then two listings that
    // name no node; the second waits for pv1-1's window.
    const own = t.client.nodeStatus('pv1-1');
    const listings = [t.client.clusterResources('vm'), t.client.clusterResources('vm')];
    await Promise.all([own, listings[0]]);
    expect(t.client.paceStats().pace['pv1-1']?.waited).toBe(1);
    void listings[1]!.catch(() => undefined);
  });
});
