/**
 * How long one RRD graph read takes end to end (simulator answer, HTTPS, the client's zod parse, the service's
 * series), per release and timeframe, and how big the answer is: `npx tsx scripts/bench-rrd.ts`. Never a timed test.
 */
import { createPveClient } from '../main/core';
import { createLogger } from '../main/log/logger';
import { minimalCluster, proxyVm, startSimulator } from '../main/simulator';
import { vmSeries } from '../main/services/rrd/series';

const TIMEFRAMES = ['hour', 'day', 'week', 'month', 'year'] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

for (const version of ['8.4', '9.2'] as const) {
  const dataset = minimalCluster();
  dataset.nodes[0]!.vms.push(proxyVm(130, 'proxy-bench', 'uid-bench', 'running'));
  const sim = await startSimulator({ dataset, version, timeScale: 1 });
  const admin = sim.tokens.admin!;
  const client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem! },
    token: { kind: 'secret', tokenId: admin.tokenId, secret: () => admin.secret },
    logger: createLogger({ sinks: [] }),
  });
  for (const timeframe of TIMEFRAMES) {
    const runs: number[] = [];
    let rows = 0;
    let bytes = 0;
    for (let i = 0; i < 15; i++) {
      const start = performance.now();
      const answer = await client.vmRrd('pv1-1', 130, timeframe, 'AVERAGE');
      const series = vmSeries(answer, { timeframe, cf: 'AVERAGE', fetchedAt: '' });
      runs.push(performance.now() - start);
      rows = series.times.length;
      bytes = JSON.stringify(series).length;
    }
    console.log(
      `${version} ${timeframe}: ${rows} points, series ${(bytes / 1024).toFixed(0)} KiB, median ${median(runs).toFixed(1)} ms over ${runs.length} reads`,
    );
  }
  await client.close();
  await sim.close();
}
