/**
 * Issue 11: identical concurrent GETs share one request. A bulk of twenty
 * creates starts with twenty `/cluster/resources?type=vm` lookups and as many
 * reads of the template's config within the same second; each asks the same
 * thing, so the first one goes and the others take its answer.
 *
 * A GET joins an identical one (same path and query) that is still waiting
 * or on the wire (a queue at the pace makes the window of a bulk's first
 * second), and, for the listings in `reuseRoutes`, one answered at most
 * `reuseMs` ago (0 by default). It never joins across a write: every POST/PUT/DELETE
 * bumps the epoch of its node and of the cluster, and a GET only joins a
 * request of the same epoch, so a caller that changed something always reads
 * after its change. Failures are shared with those already waiting, never
 * kept. Each caller keeps its own signal: one giving up does not cancel the
 * others' request, which is cancelled only when every caller has given up.
 */
export interface SingleFlightOptions {
  /**
   * How long a finished listing's answer is reused (default 0: only requests still waiting or on the wire are
   * joined; the inventory's back-to-back refreshes and the lock waits each want a fresh answer).
   */
  reuseMs?: number;
  /** Route templates whose finished answers may be reused (default `/cluster/resources`). */
  reuseRoutes?: readonly string[];
  now?: () => number;
}

interface Flight {
  epoch: number;
  /** Aborts the request once every caller waiting on it has given up. */
  controller: AbortController;
  waiting: number;
  promise: Promise<string>;
  /** When it answered (ms), once it has. */
  answeredAt?: number;
  reusable: boolean;
}

export class SingleFlight {
  private readonly flights = new Map<string, Flight>();
  private readonly epochs = new Map<string, number>();
  private readonly reuseMs: number;
  private readonly reuseRoutes: ReadonlySet<string>;
  private readonly now: () => number;
  joined = 0;

  constructor(o: SingleFlightOptions = {}) {
    this.reuseMs = o.reuseMs ?? 0;
    this.reuseRoutes = new Set(o.reuseRoutes ?? ['/cluster/resources']);
    this.now = o.now ?? (() => performance.now());
  }

  /** A write to `node` (undefined: not addressed to a node): later GETs do not join earlier ones. */
  wrote(node: string | undefined): void {
    this.bump('*');
    if (node !== undefined) this.bump(node);
  }

  /**
   * The answer of `key` (a GET's path and query) on `node`: an identical request's if one can be joined, else
   * `send()`'s. `signal` only stops this caller's wait.
   */
  async run(
    key: string,
    route: string,
    node: string | undefined,
    send: (signal: AbortSignal) => Promise<string>,
    signal?: AbortSignal,
  ): Promise<string> {
    signal?.throwIfAborted();
    const epoch = this.epochOf(node);
    const held = this.flights.get(key);
    let flight: Flight;
    if (held && held.epoch === epoch && !held.controller.signal.aborted && (held.answeredAt === undefined || (held.reusable && this.now() - held.answeredAt <= this.reuseMs))) {
      this.joined++;
      flight = held;
    } else {
      const controller = new AbortController();
      flight = { epoch, controller, waiting: 0, promise: send(controller.signal), reusable: this.reuseRoutes.has(route) };
      this.flights.set(key, flight);
      flight.promise.then(
        () => {
          flight.answeredAt = this.now();
          if (!flight.reusable && this.flights.get(key) === flight) this.flights.delete(key);
          else if (flight.reusable) setTimeout(() => this.flights.get(key) === flight && this.flights.delete(key), this.reuseMs + 1).unref();
        },
        () => {
          if (this.flights.get(key) === flight) this.flights.delete(key);
        },
      );
    }
    if (!signal) {
      flight.waiting = Number.POSITIVE_INFINITY; // a caller that never gives up
      return flight.promise;
    }
    flight.waiting++;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        if (--flight.waiting <= 0 && flight.answeredAt === undefined) flight.controller.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  private epochOf(node: string | undefined): number {
    // A cluster-wide GET sees every node: any write counts. A node's GET: writes to that node.
    return this.epochs.get(node ?? '*') ?? 0;
  }

  private bump(k: string): void {
    this.epochs.set(k, (this.epochs.get(k) ?? 0) + 1);
  }
}
