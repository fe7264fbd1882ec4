/**
 * Issue 11's pveproxy load: each node answers with a bounded pool of
 * workers, and each request holds one worker for a fixed simulated cost, so
 * requests queue (FIFO) when every worker is busy and latency grows under
 * load. The counters give requests per second per node, mean and peak.
 *
 * Sources:
 * - proxmox/pve-manager PVE/Service/pveproxy.pm: `max_workers => 3, # may be
 *   overridden in init` (and `MAX_WORKERS` in /etc/default/pveproxy);
 *   PVE/Service/pvedaemon.pm has the same 3 for the privileged calls.
 * - proxmox/pve-http-server src/PVE/APIServer/AnyEvent.pm
 *   handle_api2_request: the worker runs rest_handler inline, so a handler
 *   occupies its worker until it returns; calls with `proxyto => 'node'`
 *   are forwarded to that node's pveproxy (pve-manager PVE/HTTPServer.pm
 *   rest_handler), so they load the node in the path.
 * The cost per request (default 5 ms) is an estimate, not a source figure.
 *
 * The queue is kept on a virtual timeline of simulated ms (each worker's
 * next free time), so counting and latency are exact at any timeScale. The
 * request really waits only when that wait is at least 1 real ms: a shorter
 * timer would be rounded up to 1 ms by Node and slow every test ~200-fold.
 */
import type { SimClock } from './clock';

export interface NodeLoad {
  node: string;
  /** Requests per simulated second over the window (the window counts as at least 1 s). */
  mean: number;
  /** The most requests that arrived in one simulated second of the window. */
  peak: number;
  total: number;
}

export const DEFAULT_WORKERS = 3;
export const DEFAULT_REQUEST_COST_MS = 5;

export class PveproxyLoad {
  /** Per node, each worker's next free moment (simulated ms). */
  private readonly free = new Map<string, number[]>();
  /** Per node, arrival times (simulated ms) since the last reset. */
  private arrivals = new Map<string, number[]>();
  private since: number;

  constructor(
    private readonly clock: SimClock,
    public workers = DEFAULT_WORKERS,
    public requestCostMs = DEFAULT_REQUEST_COST_MS,
  ) {
    this.since = clock.now();
  }

  /**
   * Takes a worker on `node` for one request: waits (on simulated time) for
   * the earliest free worker plus the request's cost. Resolves with the
   * request's simulated latency (queueing + service).
   */
  async admit(node: string): Promise<number> {
    const now = this.clock.now();
    const list = this.arrivals.get(node) ?? [];
    this.arrivals.set(node, list);
    list.push(now);
    const pool = this.pool(node);
    let i = 0;
    for (let k = 1; k < pool.length; k++) if (pool[k]! < pool[i]!) i = k;
    const end = Math.max(now, pool[i]!) + this.requestCostMs;
    pool[i] = end;
    const latency = end - now;
    if (latency * this.clock.timeScale >= 1) await this.clock.sleep(latency);
    return latency;
  }

  /** Requests per second per node over the last `windowMs` simulated ms (default: since the last reset). */
  perNode(windowMs?: number): NodeLoad[] {
    const now = this.clock.now();
    const from = windowMs === undefined ? this.since : Math.max(this.since, now - windowMs);
    const seconds = Math.max(1, (now - from) / 1000);
    return [...this.arrivals].map(([node, times]) => {
      const inWindow = times.filter((t) => t >= from);
      const buckets = new Map<number, number>();
      for (const t of inWindow) {
        const b = Math.floor((t - from) / 1000);
        buckets.set(b, (buckets.get(b) ?? 0) + 1);
      }
      return { node, mean: inWindow.length / seconds, peak: Math.max(0, ...buckets.values()), total: inWindow.length };
    });
  }

  /** Forgets the counters (not the queue). */
  reset(): void {
    this.arrivals = new Map();
    this.since = this.clock.now();
  }

  private pool(node: string): number[] {
    let pool = this.free.get(node);
    if (!pool || pool.length !== this.workers) {
      pool = Array.from({ length: this.workers }, (_, k) => pool?.[k] ?? 0);
      this.free.set(node, pool);
    }
    return pool;
  }
}
