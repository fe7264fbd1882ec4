/**
 * Bounded concurrency, globally and per node: a task takes one slot of
 * each before it sends anything, so a bulk create cannot flood a node.
 * Waiters are served first come, first served, skipping those whose node
 * is full so one busy node does not hold up the others.
 */
export interface Limits {
  /** Tasks running at once across every cluster (default 24). */
  global: number;
  /** Tasks running at once on one node (default 8). */
  perNode: number;
}

/**
 * A create spends almost all its time waiting on Proxmox tasks, polled at
 * most four times a second, and sends one request at a time; Proxmox queues
 * its own work per node. So eight creates on a node cost it at most eight
 * requests in flight, and a bulk create of 20 over 3 nodes runs in one wave.
 */
export const defaultLimits: Limits = { global: 24, perNode: 8 };

interface Waiter {
  key: string;
  grant: () => void;
}

export class Slots {
  private running = 0;
  private readonly perKey = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: Limits) {}

  /**
   * Resolves with a release function once a slot is free. `key` is
   * `<cluster>/<node>`, or `<cluster>/` when the node is unknown (global limit only).
   */
  acquire(key: string, signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        key,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.releaser(key));
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error('cancelled while queued'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  private fits(key: string): boolean {
    if (this.running >= this.limits.global) return false;
    return key.endsWith('/') || (this.perKey.get(key) ?? 0) < this.limits.perNode;
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length;) {
      const w = this.waiting[i]!;
      if (!this.fits(w.key)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.running++;
      this.perKey.set(w.key, (this.perKey.get(w.key) ?? 0) + 1);
      w.grant();
    }
  }

  private releaser(key: string): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
      const n = (this.perKey.get(key) ?? 1) - 1;
      if (n === 0) this.perKey.delete(key);
      else this.perKey.set(key, n);
      this.pump();
    };
  }
}
