/**
 * One repeating job with backoff: runs, waits its cadence, runs again. A
 * failed run doubles the wait (up to a ceiling) until a run succeeds, so a
 * cluster that is down costs a few requests, not a flood. Never two runs at
 * once; a trigger during a run queues exactly one more.
 */
import { realTimers, type Timers } from './timers';

export interface PollerOptions {
  /** Resolves true when the run succeeded; a rejection counts as a failure. */
  run(): Promise<boolean>;
  /** The wait between successful runs; read at every scheduling, so it may change (visibility). */
  cadenceMs(): number;
  /** The longest wait while failing. */
  maxBackoffMs: number;
  timers?: Timers;
  /** Called after each run with the wait chosen for the next. */
  onScheduled?(delayMs: number, failures: number): void;
}

/** The cadence while healthy; doubled per failure in a row, up to the ceiling (never below the cadence). */
export function backoffDelay(cadenceMs: number, failures: number, maxBackoffMs: number): number {
  if (failures === 0) return cadenceMs;
  return Math.max(cadenceMs, Math.min(maxBackoffMs, cadenceMs * 2 ** failures));
}

export class Poller {
  private timer: unknown;
  private running: Promise<void> | undefined;
  private pending = false;
  private stopped = true;
  private lastEnd = 0;
  private failureCount = 0;
  private readonly timers: Timers;

  constructor(private readonly options: PollerOptions) {
    this.timers = options.timers ?? realTimers;
  }

  get failures(): number {
    return this.failureCount;
  }

  /** The wait after the last run: the cadence, or the backoff while failing. */
  delayMs(): number {
    return backoffDelay(this.options.cadenceMs(), this.failureCount, this.options.maxBackoffMs);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.trigger();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /** Run now (or right after the current run), whatever the schedule. */
  trigger(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      // The running promise settles only after the queued run too.
      this.pending = true;
      return this.running;
    }
    this.clearTimer();
    this.running = this.runOnce();
    return this.running;
  }

  /** The cadence changed: keep the last run as the reference, run now if the new wait is already over. */
  reschedule(): void {
    if (this.stopped || this.running) return;
    this.clearTimer();
    const due = this.lastEnd + this.delayMs() - this.timers.now();
    if (due <= 0) void this.trigger();
    else this.timer = this.timers.setTimeout(() => void this.trigger(), due);
  }

  /** Resolves when no run is in progress. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async runOnce(): Promise<void> {
    let ok = false;
    try {
      ok = await this.options.run();
    } catch {
      ok = false;
    }
    this.failureCount = ok ? 0 : this.failureCount + 1;
    this.lastEnd = this.timers.now();
    this.running = undefined;
    if (this.stopped) return;
    if (this.pending) {
      this.pending = false;
      this.running = this.runOnce();
      return this.running;
    }
    const delay = this.delayMs();
    this.options.onScheduled?.(delay, this.failureCount);
    this.timer = this.timers.setTimeout(() => void this.trigger(), delay);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
