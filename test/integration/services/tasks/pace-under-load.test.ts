/**
 * Issue 11: the app's pace engages under load (pace.ts 'under-load',
 * services/clusters/client-policy.ts): through the task manager, a lone
 * create is never held to the per-node window, two creates at once are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Requests that waited for the pace on pv1-1 so far. */
const waited = (e: Env) => e.t.client.paceStats().pace['pv1-1']?.waited ?? 0;

async function creates(e: Env, count: number, name: string): Promise<void> {
  const { taskIds } = await e.manager.createProxies({
    clusterId: e.t.cluster.id,
    template: 't9001',
    machineType: 'medium',
    name,
    count,
    cloudInit: '#cloud-config\n',
  });
  const ends = await Promise.all(taskIds.map((id) => e.manager.wait(id)));
  expect(ends.filter((t) => t.state !== 'succeeded').map((t) => t.message)).toEqual([]);
}

describe('the pace under load, through the task manager', () => {
  it('holds none of a lone create, and holds creates that overlap', async () => {
    // 3 sends per 100 ms on the one node; the busy period ends as soon as its last create does.
    env = await startEnv({ client: { pace: { requests: 3, perMs: 100, guardMs: 0, engage: 'under-load', settleMs: 0 } } });
    await creates(env, 1, 'proxy-alone');
    expect(waited(env)).toBe(0);
    await creates(env, 2, 'proxy-pair');
    expect(waited(env)).toBeGreaterThan(0);
  });
});
