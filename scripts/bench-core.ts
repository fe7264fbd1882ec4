/**
 * Create time over the simulator's task time, and polls per create, for the
 * adaptive poll against a fixed one-second poll (the Go provider's).
 * Realistic durations: clone 3 s, upload 1 s, resize 1 s, start 1 s.
 * Run: npx tsx scripts/bench-core.ts
 */
import { simProvider } from '../test/integration/core/sim-provider';
import type { Budgets } from '../main/core';

const durations = { qmclone: 3000, imgcopy: 1000, resize: 1000, qmstart: 1000 };
const taskTimeMs = Object.values(durations).reduce((a, b) => a + b, 0);

async function measure(label: string, budgets: Partial<Budgets>, runs: number): Promise<void> {
  const env = await simProvider({ timeScale: 1, taskDurations: durations, agentDelayMs: 0 }, budgets);
  try {
    let totalMs = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await env.provider.create({
        uid: `bench-${label}-${i}`,
        name: `proxy-bench-${i}`,
        // diskGiB above the template's so the resize task runs, as in a real create.
        placement: { machineType: 'big', image: 'debian-13' },
        cloudInit: '#cloud-config\n',
      });
      totalMs += performance.now() - started;
    }
    const polls = env.sim.requests.records.filter((r) => r.route.endsWith('/status') && r.route.includes('/tasks/')).length;
    const statusPolls = env.sim.requests.records.filter((r) => r.route.endsWith('/status/current')).length;
    const createMs = totalMs / runs;
    console.log(
      `${label.padEnd(9)} create ${(createMs / 1000).toFixed(2)} s over task time ${(taskTimeMs / 1000).toFixed(2)} s = ${(createMs / taskTimeMs).toFixed(3)}; ` +
        `task polls per create ${(polls / runs).toFixed(1)} (${(polls / runs / 4).toFixed(1)} per task), status/current per create ${(statusPolls / runs).toFixed(1)}`,
    );
  } finally {
    await env.close();
  }
}

const runs = Number(process.argv[2] ?? 3);
await measure('adaptive', {}, runs);
await measure('fixed-1s', { youngPollMs: 1000, oldPollMs: 1000 }, runs);
