/**
 * Issue 22: what an endless Proxmox answer costs the app's memory. The simulator (in this process) streams
 * `/cluster/resources` at 25 MB/s for ever; the client reads it with the given request timeout. Prints the process's
 * memory before, at its peak while the call runs, and after, and the bytes the simulator wrote:
 * `npx tsx --expose-gc scripts/measure-endless-answer.ts [timeoutMs=12000] [bytesPerSecond=25000000]`. Never a test.
 */
import { createPveClient } from '../main/core';
import { createLogger } from '../main/log/logger';
import { startSimulator } from '../main/simulator';

const timeoutMs = Number(process.argv[2] ?? 12_000);
const bytesPerSecond = Number(process.argv[3] ?? 25_000_000);
const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const sim = await startSimulator({ dataset: 'minimal', timeScale: 1 });
const admin = sim.tokens.admin!;
const client = createPveClient({
  baseUrl: sim.url,
  tls: { mode: 'ca', caPem: sim.caPem! },
  token: { kind: 'secret', tokenId: admin.tokenId, secret: () => admin.secret },
  requestTimeoutMs: timeoutMs,
  logger: createLogger({ sinks: [] }),
});
await client.version();
sim.faults.inject({ route: '/cluster/resources' }, { kind: 'endless', bytesPerSecond });

const used = () => {
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external };
};
gc();
const before = used();
let peak = before;
const sampler = setInterval(() => {
  const now = used();
  if (now.rss > peak.rss) peak = now;
}, 20);
const started = performance.now();
const outcome = await client.clusterResources().then(
  (rows) => `answered (${rows.length} rows)`,
  (e: unknown) => `refused: ${e instanceof Error ? e.message : String(e)}`,
);
const ms = performance.now() - started;
const atEnd = used();
if (atEnd.rss > peak.rss) peak = atEnd;
clearInterval(sampler);
const record = sim.requests.records.find((r) => r.route === '/cluster/resources');
const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
const delta = (a: ReturnType<typeof used>, b: ReturnType<typeof used>) =>
  `rss ${mib(b.rss - a.rss)}, heap ${mib(b.heap - a.heap)}, external (buffers) ${mib(b.external - a.external)}`;
console.log(`timeout ${timeoutMs} ms, ${(bytesPerSecond / 1e6).toFixed(0)} MB/s: ${outcome.slice(0, 160)} after ${Math.round(ms)} ms`);
console.log(`simulator wrote ${mib(record?.bytesSent ?? 0)}`);
console.log(`peak over before: ${delta(before, peak)}`);
console.log(`at the call's end over before: ${delta(before, atEnd)}`);
await client.close();
await sim.close();
