/** A cluster without its token secret is reported as `secret-missing`, with no request sent: not degraded, not empty. */
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthUpdate } from '../../../../shared/channels/health';
import type { InventoryDelta } from '../../../../shared/channels/inventory';
import { createLogger } from '../../../../main/log/logger';
import { createHealthService } from '../../../../main/services/health/service';
import { createInventoryService } from '../../../../main/services/inventory/service';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';

let t: SimCluster | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a missing secret is not a broken cluster', () => {
  it('inventory and health say secret-missing and send nothing until the secret is held again', async () => {
    t = await startSimCluster();
    let held = false;
    t.directory.set({ ...t.cluster, secretMissing: () => !held });
    const deltas: InventoryDelta[] = [];
    const updates: HealthUpdate[] = [];
    const logger = createLogger({ sinks: [] });
    const inventory = createInventoryService({ clusters: t.directory, logger, visibleIntervalMs: 20, publish: (d) => deltas.push(d) });
    const health = createHealthService({ clusters: t.directory, logger, intervalMs: 20, publish: (u) => updates.push(u) });
    const before = t.sim.requests.total;
    inventory.start();
    health.start();
    try {
      await until(() => deltas.some((d) => d.status?.state === 'secret-missing') && updates.length >= t!.cluster.profile.nodes.length);
      expect(t.sim.requests.total).toBe(before);
      expect(inventory.snapshot('sim').clusters[0]!.status).toMatchObject({ state: 'secret-missing', reason: expect.stringMatching(/token secret/) });
      expect(updates[0]!.latest).toMatchObject({ ready: false, reason: 'SecretMissing', hint: expect.stringMatching(/nothing is wrong with the cluster/) });
      expect(deltas.some((d) => d.status?.state === 'degraded')).toBe(false);
      held = true;
      await until(() => inventory.snapshot('sim').clusters[0]!.status.state === 'ok');
      await until(() => updates.at(-1)!.latest.reason === 'Reachable');
    } finally {
      inventory.stop();
      health.stop();
    }
  });
});

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
