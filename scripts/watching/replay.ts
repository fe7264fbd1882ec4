/**
 * Replays the Proxmox web UI's stores and Pulse's cycle (schedules.ts) against a simulator, on its clock: plain
 * HTTPS GETs with an API token, so the simulator's request log counts them as it counts the app's. A failed answer
 * (a route the simulator does not model, such as Ceph's status) is still a request pveproxy served, and counts.
 */
import { Agent, request } from 'undici';
import { PULSE_CALLS, PULSE_CYCLE_MS, PVE_UI_STORES, type ClusterView } from './schedules';

export interface ReplayTarget {
  url: string;
  caPem: string | undefined;
  tokenId: string;
  secret: string;
  /** Simulated ms, and a sleep on the same clock. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

function client(target: ReplayTarget) {
  const dispatcher = new Agent({ connect: target.caPem ? { ca: target.caPem } : { rejectUnauthorized: false }, connections: 8 });
  const headers = { authorization: `PVEAPIToken=${target.tokenId}=${target.secret}` };
  return {
    async get(path: string): Promise<void> {
      const res = await request(`${target.url}/api2/json${path}`, { dispatcher, headers });
      await res.body.dump();
    },
    close: () => dispatcher.close(),
  };
}

/** Runs `work` with at most `limit` at once. */
async function inBatches(items: string[], limit: number, work: (item: string) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The web UI's stores, each on its own UpdateStore loop, for `durationMs` of simulated time. */
export async function replayPveUi(target: ReplayTarget, view: ClusterView, durationMs: number): Promise<void> {
  const http = client(target);
  const end = target.now() + durationMs;
  await Promise.all(
    PVE_UI_STORES.map(async (store) => {
      // startUpdate() delays the first load by 1 ms (UpdateStore.js:57-59).
      await target.sleep(1);
      while (target.now() < end) {
        const started = target.now();
        await http.get(store.path(view)).catch(() => undefined);
        const runtime = target.now() - started;
        await target.sleep(store.intervalMs + runtime * 2);
      }
    }),
  );
  await http.close();
}

/** Pulse's cycle every PULSE_CYCLE_MS (a ticker: a cycle that overruns is not made up), for `durationMs`. */
export async function replayPulse(target: ReplayTarget, view: ClusterView, durationMs: number): Promise<void> {
  const http = client(target);
  const start = target.now();
  const end = start + durationMs;
  const lastCalled = new Map<string, number>();
  for (let cycle = 0; start + cycle * PULSE_CYCLE_MS < end; cycle++) {
    const due = start + cycle * PULSE_CYCLE_MS;
    if (due > target.now()) await target.sleep(due - target.now());
    for (const call of PULSE_CALLS) {
      const last = lastCalled.get(call.name);
      if (call.ttlMs !== undefined && last !== undefined && target.now() - last < call.ttlMs) continue;
      lastCalled.set(call.name, target.now());
      // Pulse runs a cycle's per-guest calls in parallel workers; the count does not depend on how many at once.
      await inBatches(call.paths(view), 8, (p) => http.get(p).catch(() => undefined));
    }
  }
  await http.close();
}
