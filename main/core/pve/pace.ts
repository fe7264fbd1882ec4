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
 * then first come first served: copies (clone and migrate POSTs, see
 * PaceClass), writes (the create's critical path), then
 * reads (an operation's lookups, task listings and agent reads), then polls
 * (the inventory's), so a bulk's polling yields to the next clone, upload or
 * start. Reads and polls never take the last send of a window
 * (`reservedForWrites`): looks at a task that is about to end come in twos
 * and threes, and without the reserve they fill the window just when the
 * write that follows the task (the next upload, config or start) wants to go.
 * Measured on one create at 3 a second (scripts/bench-core.ts, learned
 * durations): 1.34× Proxmox's time without the reserve, 1.26× with it.
 *
 * When it holds requests back (`engage`): 'always', or 'under-load', the
 * app's choice: only in a busy period, from the moment two of the client's
 * operations (creates: services/tasks/runners/create.ts marks them) overlap until
 * none is left, and `settleMs` more: a create's operation ends with its
 * start, and the inventory's reads of the guests' addresses follow for the
 * boot (F21: the agent answers ~50 s after the start), one per VM, all on
 * the bulk's nodes. The limit is about pveproxy's 3 workers under concurrent
 * work; one create alone sends a burst of 4-5 requests in a second at most
 * (the look that sees its clone end, then the config write and the resize)
 * and nothing else of ours is on the node then. Paced, that lone create took
 * 1.26× Proxmox's time instead of 1.09× (scripts/bench-core.ts 3). Sends made
 * outside a busy period are still counted, so the first window of a busy
 * period holds only what is left of it; and a busy period lasts until the
 * last operation ends, not until the second-last, so a bulk's tail (one create
 * left, the node still copying) stays paced and a bulk's peak stays at 3.
 *
 * Issue 22: a read a loop repeats (a follower, a poller, a watcher: api.ts
 * CallOptions `loop`) is held to the pace always, busy period or not, in a
 * lane of its own per node: the loops of one client together send a node at
 * most `requests` reads in any window, however fast it answers and whatever
 * it answers (a log route that always answers a full page was read 290-1,400
 * times a second before). Only loops: a one-off request (an operation's
 * write, a lookup) keeps the 'under-load' rule above, so a lone create is
 * not slowed where it was not before; a loop read also takes its place in
 * the node's ordinary window, so under load it waits for both.
 *
 * The wait here is not part of a request's time budget (transport.ts starts
 * the timeout when the request leaves): the queue always drains at the pace,
 * whatever the node answers, so it cannot time a request out. A caller that
 * gives up (its signal) leaves the queue at once.
 *
 * Long because the node's window (Pace) and the loops' lane (LoopLane) are
 * one pace: a loop read takes its turn in both, so they share one clock,
 * one waiter and the measured choices explained above.
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
  /** Sends of each window only writes may use (default 1; never all of `requests`). The app uses 0: client-policy.ts. */
  reservedForWrites?: number;
  /** 'always' (default), or only in a busy period of overlapping operations ('under-load', see above). */
  engage?: 'always' | 'under-load';
  /** How long a busy period outlasts its last operation (default 60 s: the boot its creates' address reads follow). */
  settleMs?: number;
}

/** 3 per second per node: one per pveproxy worker per second (see above). */
export const DEFAULT_PACE: PaceOptions = { requests: 3, perMs: 1000, guardMs: 50 };

/**
 * `copy`: a write that starts a disk copy (a clone, a migrate). It goes before the other writes: while it waits, its
 * storage's copy slot is held and the disk idles, and the disk is what a bulk's floor is made of; a config write or a
 * start queued beside it delays one create by a send, a clone delays every create behind it in its storage's queue.
 * Measured with scripts/bench-bulk.ts (BENCH_TIMELINE): a node's second wave of clones had waited a second behind the
 * first wave's config, upload and resize writes.
 */
export type PaceClass = 'copy' | 'write' | 'read' | 'poll';
const ORDER: readonly PaceClass[] = ['copy', 'write', 'read', 'poll'];

interface Waiter {
  grant: () => void;
}

/** Joins `queue` and resolves when granted; an abort leaves the queue and rejects with the signal's reason. */
function waitInQueue(queue: Waiter[], signal: AbortSignal | undefined, pump: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const waiter: Waiter = {
      grant: () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
    };
    const onAbort = () => {
      const i = queue.indexOf(waiter);
      if (i >= 0) queue.splice(i, 1);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    queue.push(waiter);
    pump();
  });
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
  /** Loop reads that waited in the node's loop lane (issue 22). */
  loopWaited: number;
}

export class Pace {
  private readonly nodes = new Map<string, NodePace>();
  /** Operations in flight (operation()), and whether they have overlapped since the client was last idle. */
  private operations = 0;
  private busy = false;
  private settling: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly options: PaceOptions = DEFAULT_PACE,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(options.requests >= 1) || !(options.perMs > 0)) throw new Error('pace: requests must be >= 1 and perMs > 0');
  }

  /**
   * Resolves when a request of `cls` may leave for `node`; rejects with the signal's reason if it aborts first. A
   * `loop` read first waits for its turn in the node's loop lane (see above), engaged or not.
   */
  async take(node: string, cls: PaceClass, signal?: AbortSignal, loop = false): Promise<void> {
    if (loop) await this.loopLaneOf(node).take(signal);
    return this.takeTurn(node, cls, signal);
  }

  private takeTurn(node: string, cls: PaceClass, signal?: AbortSignal): Promise<void> {
    const p = this.nodeOf(node);
    if (!this.engaged() || (this.idle(p) && this.freeAt(p, cls) <= this.now())) {
      p.sent.push(this.now());
      this.trim(p);
      return Promise.resolve();
    }
    signal?.throwIfAborted();
    p.waited++;
    return waitInQueue(p.queues[cls], signal, () => this.pump(p));
  }

  /**
   * An operation of the client starts (a create); call the returned function once when it ends. Two at once begin
   * a busy period, which ends with the last of them ('under-load' paces only then).
   */
  operation(): () => void {
    this.operations++;
    if (this.operations >= 2) this.busy = true;
    // One that starts while a busy period settles continues it.
    if (this.settling) clearTimeout(this.settling);
    this.settling = undefined;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.operations--;
      if (this.operations > 0 || !this.busy) return;
      this.settling = setTimeout(() => {
        this.settling = undefined;
        this.busy = false;
        // Whatever still waits goes now: nothing of ours overlaps on any node any more.
        for (const p of this.nodes.values()) this.pump(p);
      }, this.options.settleMs ?? 60_000);
      // A settling period alone never keeps the process alive (Node's timers have unref; others need not).
      (this.settling as { unref?: () => void }).unref?.();
    };
  }

  /** Whether requests wait for their turn now. */
  engaged(): boolean {
    return this.options.engage !== 'under-load' || this.busy;
  }

  stats(): Record<string, PaceStats> {
    const nodes = new Set([...this.nodes.keys(), ...this.loopLanes.keys()]);
    return Object.fromEntries(
      [...nodes].map((node) => {
        const p = this.nodes.get(node);
        const lane = this.loopLanes.get(node);
        const queued = (p ? ORDER.reduce((n, c) => n + p.queues[c].length, 0) : 0) + (lane?.queued ?? 0);
        return [node, { waited: p?.waited ?? 0, queued, loopWaited: lane?.waited ?? 0 }];
      }),
    );
  }

  private readonly loopLanes = new Map<string, LoopLane>();

  private loopLaneOf(node: string): LoopLane {
    let lane = this.loopLanes.get(node);
    if (!lane) {
      lane = new LoopLane(this.options.requests, this.options.perMs + (this.options.guardMs ?? 0), this.now);
      this.loopLanes.set(node, lane);
    }
    return lane;
  }

  private idle(p: NodePace): boolean {
    return ORDER.every((c) => p.queues[c].length === 0);
  }

  /** How many sends of a window a class may use: all for writes, all but the reserve for the others. */
  private limitOf(cls: PaceClass): number {
    const { requests } = this.options;
    if (cls === 'copy' || cls === 'write') return requests;
    return Math.max(1, requests - Math.min(requests - 1, this.options.reservedForWrites ?? 1));
  }

  /**
   * When the next send of `cls` may leave: at once while fewer than its limit left in the last window, else when
   * enough of them have aged out (`sent` holds the last `requests` send times, oldest first).
   */
  private freeAt(p: NodePace, cls: PaceClass): number {
    const limit = this.limitOf(cls);
    if (p.sent.length < limit) return Number.NEGATIVE_INFINITY;
    return p.sent[p.sent.length - limit]! + this.options.perMs + (this.options.guardMs ?? 0);
  }

  private trim(p: NodePace): void {
    while (p.sent.length > this.options.requests) p.sent.shift();
  }

  private pump(p: NodePace): void {
    // Recomputed on every arrival: a write may leave while the read ahead of it still waits for its share.
    if (p.timer) clearTimeout(p.timer);
    p.timer = undefined;
    for (;;) {
      const cls = ORDER.find((c) => p.queues[c].length > 0);
      if (!cls) return;
      const at = this.engaged() ? this.freeAt(p, cls) : Number.NEGATIVE_INFINITY;
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
    if (!p) this.nodes.set(node, (p = { sent: [], queues: { copy: [], write: [], read: [], poll: [] }, timer: undefined, waited: 0 }));
    return p;
  }
}

/**
 * One node's loop lane: at most `size` sends in any `windowMs`, first come first served, always engaged. The same
 * sliding window as the node's own (a send's turn comes back `windowMs` after it left).
 */
class LoopLane {
  private readonly sent: number[] = [];
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  waited = 0;

  constructor(
    private readonly size: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  get queued(): number {
    return this.queue.length;
  }

  take(signal?: AbortSignal): Promise<void> {
    if (this.queue.length === 0 && this.freeAt() <= this.now()) {
      this.send();
      return Promise.resolve();
    }
    signal?.throwIfAborted();
    this.waited++;
    return waitInQueue(this.queue, signal, () => this.pump());
  }

  private freeAt(): number {
    return this.sent.length < this.size ? Number.NEGATIVE_INFINITY : this.sent[this.sent.length - this.size]! + this.windowMs;
  }

  private send(): void {
    this.sent.push(this.now());
    while (this.sent.length > this.size) this.sent.shift();
  }

  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) {
      const at = this.freeAt();
      const now = this.now();
      if (at > now) {
        this.timer = setTimeout(() => this.pump(), Math.max(1, Math.ceil(at - now)));
        return;
      }
      this.send();
      this.queue.shift()!.grant();
    }
  }
}
