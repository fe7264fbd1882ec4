/**
 * Issue 11: a per-node request pace, shared by every caller of one client.
 *
 * Each Proxmox node's pveproxy serves the API with 3 workers (pve-manager
 * `PVE/Service/pveproxy.pm`: `max_workers => 3`), shared with the web GUI,
 * pvesh users and every other client. The node gate (node-gate.ts) bounds
 * what is in flight; this bounds the rate: at most `requests` sends per node
 * in any `perMs` window (the default, 3 per second, is one request per
 * worker per second, so this app alone never keeps the node's workers busy
 * for long and a 1 s sample of the node never counts more than 3 from it).
 *
 * It is a token bucket whose tokens come back exactly `perMs` after they are
 * spent (a sliding window): up to `requests` may leave at once, then the next
 * waits for the oldest to age out. Waiting requests are served by class,
 * then first come first served: writes (the create's critical path), then
 * reads, then polls (task listings, agent reads, the inventory listing),
 * so a bulk's polling yields to the next clone, upload or start.
 *
 * The wait here is not part of a request's time budget (transport.ts starts
 * the timeout when the request leaves): the queue always drains at the pace,
 * whatever the node answers, so it cannot time a request out. A caller that
 * gives up (its signal) leaves the queue at once.
 */
export interface PaceOptions {
  /** Sends allowed per node in any window of `perMs` (default 3). */
  requests: number;
  /** The window (default 1000 ms). */
  perMs: number;
  /**
   * Added to the window, so sends spaced exactly `perMs` apart still land in separate seconds at the node after
   * the network, the connection pool and the event loop shift them a little (default 50 ms).
   */
  guardMs?: number;
}

/** 3 per second per node: one per pveproxy worker per second (see above). */
export const DEFAULT_PACE: PaceOptions = { requests: 3, perMs: 1000, guardMs: 50 };

export type PaceClass = 'write' | 'read' | 'poll';
const ORDER: readonly PaceClass[] = ['write', 'read', 'poll'];

interface Waiter {
  grant: () => void;
}

interface NodePace {
  /** Send times (ms) of the last `requests` sends, oldest first. */
  sent: number[];
  queues: Record<PaceClass, Waiter[]>;
  timer: ReturnType<typeof setTimeout> | undefined;
  waited: number;
}

export interface PaceStats {
  /** Requests that had to wait for their turn. */
  waited: number;
  /** Requests waiting now. */
  queued: number;
}

export class Pace {
  private readonly nodes = new Map<string, NodePace>();

  constructor(
    private readonly options: PaceOptions = DEFAULT_PACE,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(options.requests >= 1) || !(options.perMs > 0)) throw new Error('pace: requests must be >= 1 and perMs > 0');
  }

  /** Resolves when a request of `cls` may leave for `node`; rejects with the signal's reason if it aborts first. */
  take(node: string, cls: PaceClass, signal?: AbortSignal): Promise<void> {
    const p = this.nodeOf(node);
    if (this.idle(p) && this.freeAt(p) <= this.now()) {
      p.sent.push(this.now());
      this.trim(p);
      return Promise.resolve();
    }
    signal?.throwIfAborted();
    p.waited++;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const q = p.queues[cls];
        const i = q.indexOf(waiter);
        if (i >= 0) q.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      p.queues[cls].push(waiter);
      this.pump(p);
    });
  }

  stats(): Record<string, PaceStats> {
    return Object.fromEntries(
      [...this.nodes].map(([node, p]) => [node, { waited: p.waited, queued: ORDER.reduce((n, c) => n + p.queues[c].length, 0) }]),
    );
  }

  private idle(p: NodePace): boolean {
    return ORDER.every((c) => p.queues[c].length === 0);
  }

  /** When the next send may leave: at once below `requests`, else when the oldest of the last `requests` ages out. */
  private freeAt(p: NodePace): number {
    return p.sent.length < this.options.requests ? Number.NEGATIVE_INFINITY : p.sent[0]! + this.options.perMs + (this.options.guardMs ?? 0);
  }

  private trim(p: NodePace): void {
    while (p.sent.length > this.options.requests) p.sent.shift();
  }

  private pump(p: NodePace): void {
    if (p.timer) return;
    for (;;) {
      const cls = ORDER.find((c) => p.queues[c].length > 0);
      if (!cls) return;
      const at = this.freeAt(p);
      const now = this.now();
      if (at > now) {
        p.timer = setTimeout(
          () => {
            p.timer = undefined;
            this.pump(p);
          },
          Math.max(1, Math.ceil(at - now)),
        );
        return;
      }
      p.sent.push(now);
      this.trim(p);
      p.queues[cls].shift()!.grant();
    }
  }

  private nodeOf(node: string): NodePace {
    let p = this.nodes.get(node);
    if (!p) this.nodes.set(node, (p = { sent: [], queues: { write: [], read: [], poll: [] }, timer: undefined, waited: 0 }));
    return p;
  }
}
