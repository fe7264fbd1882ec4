/**
 * At most a few requests in flight per Proxmox node. A bulk create polls
 * many tasks on the node that runs the clones; without a gate those polls
 * fill the shared connection pool and requests for other nodes queue behind
 * them. Each node gets its own small queue, first come first served, and a
 * caller that gives up while waiting leaves the queue at once.
 */
export const DEFAULT_REQUESTS_PER_NODE = 4;

interface NodeQueue {
  active: number;
  peak: number;
  waiting: (() => void)[];
}

export class NodeGate {
  private readonly nodes = new Map<string, NodeQueue>();

  constructor(private readonly limit: number = DEFAULT_REQUESTS_PER_NODE) {}

  /** Resolves with a release function once the node has room; rejects with the signal's reason if it aborts first. */
  async enter(node: string, signal: AbortSignal): Promise<() => void> {
    const q = this.queue(node);
    if (q.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          q.waiting.splice(q.waiting.indexOf(grant), 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        q.waiting.push(grant);
      });
    }
    q.active++;
    q.peak = Math.max(q.peak, q.active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      q.active--;
      q.waiting.shift()?.();
    };
  }

  /** The most requests that were in flight at once, per node: for benchmarks and tests. */
  peaks(): Record<string, number> {
    return Object.fromEntries([...this.nodes].map(([node, q]) => [node, q.peak]));
  }

  private queue(node: string): NodeQueue {
    let q = this.nodes.get(node);
    if (!q) this.nodes.set(node, (q = { active: 0, peak: 0, waiting: [] }));
    return q;
  }
}
