/**
 * Simulated time. Durations are written in realistic milliseconds and
 * scaled on the way to a timer, so the demo runs at human speed and tests
 * run the same story in milliseconds.
 */
export class SimClock {
  private readonly startedAt = performance.now();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Wall-clock ms when the simulator started: where simulated time meets the calendar (RRD rows carry epoch times). */
  readonly epochMs = Date.now();

  constructor(readonly timeScale: number) {}

  /** The simulated calendar: epoch ms at the start plus simulated ms since (the RRD model's "now"). */
  wallMs(): number {
    return this.epochMs + this.now();
  }

  /** Simulated milliseconds since the simulator started. */
  now(): number {
    return (performance.now() - this.startedAt) / this.timeScale;
  }

  sleep(simMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          resolve();
        },
        Math.max(0, simMs * this.timeScale),
      );
      this.timers.add(timer);
    });
  }

  /** Calls `fn` after `simMs` simulated ms; returns a function that cancels it. */
  after(simMs: number, fn: () => void): () => void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        fn();
      },
      Math.max(0, simMs * this.timeScale),
    );
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  /** Stops every pending timer; sleeps in progress never resolve (used at close). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
