/**
 * The history database over a simulated month (issue 15's goals), never a
 * timed test: `npx tsx scripts/bench-history.ts [proxies=100] [days=30]`.
 *
 * 100 proxies checked every 5 minutes for 30 days (864,000 check records),
 * spread over the interval as the scheduler spreads them, written through
 * the store in its batches as the app writes them, with realistic values:
 * latencies 20-400 ms (a long tail), about 1 % failures (each stage, with
 * its words), an egress address that changes a few times a month per proxy.
 * Beside them, what the health service records: 3 nodes every 30 s.
 *
 * Prints: the file size (goal < 50 MB), the 7-day read of one proxy (2,016
 * rows), p95 over repeated reads, cold (a fresh connection each time, its
 * page cache empty; the OS cache warm) and warm (goal < 50 ms), the write CPU
 * per check record (report: the check's own cost is the scheduler's bench),
 * and one hourly retention pass over the full month.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../main/log/logger';
import { openHistoryDatabase } from '../main/services/history/history-db';
import { loadSqlite } from '../main/services/history/sqlite-module';
import type { CheckRecord } from '../main/services/history/types';

const PROXIES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 30);
const INTERVAL_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
const NODES = ['pve1', 'pve2', 'pve3'];
const HEALTH_EVERY_MS = 30_000;
const START = Date.UTC(2026, 9, 1);
const END = START + DAYS * DAY_MS;

/** A small deterministic generator (mulberry32) so every run inserts the same month. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(15);
const FAILURES: Array<Pick<CheckRecord, 'stage' | 'problem'>> = [
  { stage: 'connect', problem: 'The proxy did not accept the connection (ECONNREFUSED).' },
  { stage: 'handshake', problem: 'The proxy closed the connection during the handshake.' },
  { stage: 'request', problem: 'The echo URL did not answer within 10 s.' },
];
const addressOf = Array.from({ length: PROXIES }, (_, i) => `203.0.${113 + (i >> 8)}.${i & 255}`);

function checkAt(i: number, at: number): CheckRecord {
  // A few address changes a month per proxy (a DHCP lease, a provider's NAT).
  if (rand() < 4 / (DAYS * 288)) addressOf[i] = `198.51.100.${Math.floor(rand() * 254) + 1}`;
  const base = { clusterId: 'c0a8f1e2-5b6d-4c3e-9f1a-2b7c8d9e0f11', vmid: 100 + i, at, origin: 'scheduled' as const };
  if (rand() < 0.01) return { ...base, ok: false, ...FAILURES[Math.floor(rand() * FAILURES.length)] };
  const latencyMs = Math.round(20 + 30 * -Math.log(1 - rand()) + (rand() < 0.02 ? 300 * rand() : 0));
  return { ...base, ok: true, latencyMs, httpStatus: 200, egressAddress: addressOf[i] };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
const file = join(dir, 'history.sqlite');
const logger = createLogger({ sinks: [] });
try {
  const store = openHistoryDatabase({ file, logger, now: () => END, flushIntervalMs: 3_600_000 });

  // The month, in time order as the app writes it: each proxy at its own offset in the 5-minute interval.
  const offsets = Array.from({ length: PROXIES }, (_, i) => Math.floor((i * INTERVAL_MS) / PROXIES));
  let checks = 0;
  let healthRows = 0;
  let checkCpuUs = 0;
  const started = performance.now();
  for (let slot = START; slot < END; slot += INTERVAL_MS) {
    const batch = offsets.map((offset, i) => checkAt(i, slot + offset + Math.floor(rand() * 2000)));
    const cpu = process.cpuUsage();
    for (const record of batch) store.recordCheck(record);
    const used = process.cpuUsage(cpu);
    checkCpuUs += used.user + used.system;
    checks += batch.length;
    for (let t = slot; t < slot + INTERVAL_MS; t += HEALTH_EVERY_MS) {
      for (const node of NODES) {
        store.recordNodeHealth({
          clusterId: 'c0a8f1e2-5b6d-4c3e-9f1a-2b7c8d9e0f11',
          node,
          at: t,
          reason: rand() < 0.002 ? 'unreachable' : 'ok',
          latencyMs: 5 + Math.floor(rand() * 20),
        });
        healthRows++;
      }
    }
  }
  store.close();
  const insertSeconds = (performance.now() - started) / 1000;
  const bytes = statSync(file).size;
  const MB = 1_000_000;
  console.log(
    `simulated month: ${PROXIES} proxies every 5 min for ${DAYS} days = ${checks.toLocaleString('en')} checks, ${healthRows.toLocaleString('en')} node health rows (3 nodes every 30 s); inserted in ${insertSeconds.toFixed(1)} s`,
  );
  console.log(
    `database size ${(bytes / MB).toFixed(1)} MB (${(bytes / (checks + healthRows)).toFixed(1)} bytes a row, all tables and indexes, after the checkpoint at close)`,
  );
  const { DatabaseSync } = loadSqlite();
  const raw = new DatabaseSync(file, { readOnly: true });
  const tables = raw.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{
    name: string;
    bytes: number;
  }>;
  raw.close();
  const checksBytes = tables.filter((t) => /^(checks|proxies|addresses)/.test(t.name)).reduce((a, t) => a + t.bytes, 0);
  console.log(
    `checks alone ${(checksBytes / MB).toFixed(1)} MB (${(checksBytes / checks).toFixed(1)} bytes a check); by table: ${tables.map((t) => `${t.name} ${(t.bytes / MB).toFixed(1)} MB`).join(', ')}`,
  );
  const perCheckUs = checkCpuUs / checks;
  console.log(
    `write CPU per check record ${perCheckUs.toFixed(1)} µs (queue + its share of the batched transactions, which also carry the node health rows: an upper bound)`,
  );
  console.log(
    `write CPU share of one core for ${PROXIES} proxies every 5 min: ${(((perCheckUs * PROXIES) / (INTERVAL_MS * 1000)) * 100).toFixed(5)} %`,
  );

  // Reads: the last 7 days of one proxy, cold (a fresh connection) and warm.
  const vmid = 100 + Math.floor(PROXIES / 2);
  const since = END - 7 * DAY_MS;
  const cold: number[] = [];
  const coldCpu: number[] = [];
  let rows = 0;
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  for (let i = 0; i < 20; i++) {
    const fresh = openHistoryDatabase({ file, logger, now: () => END });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    rows = fresh.checks('c0a8f1e2-5b6d-4c3e-9f1a-2b7c8d9e0f11', vmid + (i % 10), since).length;
    coldCpu.push(cpuMs(c0));
    cold.push(performance.now() - t0);
    fresh.close();
  }
  const warmStore = openHistoryDatabase({ file, logger, now: () => END });
  const warm: number[] = [];
  const warmCpu: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    warmStore.checks('c0a8f1e2-5b6d-4c3e-9f1a-2b7c8d9e0f11', vmid, since);
    warmCpu.push(cpuMs(c0));
    warm.push(performance.now() - t0);
  }
  const t0 = performance.now();
  const latest = warmStore.latestChecks('c0a8f1e2-5b6d-4c3e-9f1a-2b7c8d9e0f11').length;
  const latestMs = performance.now() - t0;
  console.log(
    `7-day read of one proxy (${rows} rows): cold p95 ${percentile(cold, 0.95).toFixed(2)} ms (20 fresh connections), warm p95 ${percentile(warm, 0.95).toFixed(2)} ms (200 reads)`,
  );
  console.log(
    `7-day read CPU (load-independent): cold p95 ${percentile(coldCpu, 0.95).toFixed(2)} ms, warm p95 ${percentile(warmCpu, 0.95).toFixed(2)} ms`,
  );
  console.log(`latest check of every proxy (${latest} rows): ${latestMs.toFixed(2)} ms`);

  // One hourly retention pass a day later: one day of rows leaves.
  const r0 = performance.now();
  const removed = warmStore.applyRetention(END + DAY_MS);
  console.log(`retention pass removing one day (${removed.toLocaleString('en')} rows): ${(performance.now() - r0).toFixed(0)} ms`);
  const r1 = performance.now();
  warmStore.applyRetention(END + DAY_MS + 3_600_000);
  console.log(`retention pass an hour later (${(performance.now() - r1).toFixed(1)} ms for the hour's rows)`);
  warmStore.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
