/**
 * A clock the test moves by hand: pollers schedule on it, `advance` fires
 * what fell due, in order. Cadence and backoff are proved by counting
 * requests per step, never by waiting on wall time.
 */
import type { Timers } from '../../../../main/services/polling/timers';

interface Pending {
  at: number;
  fn: () => void;
}

export class ManualTimers implements Timers {
  private time = 0;
  private readonly pending = new Set<Pending>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { at: this.time + Math.max(0, ms), fn };
    this.pending.add(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as Pending);
  }

  /** Moves time forward, firing each timer that falls due (a timer set while firing fires too, if due). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.pending].filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.pending.delete(next);
      this.time = next.at;
      next.fn();
    }
    this.time = end;
  }
}
