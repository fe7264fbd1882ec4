/**
 * When each proxy is checked. Every proxy has a phase within the interval,
 * a hash of its cluster and VMID, so checks spread over the interval instead
 * of all starting at once, and a proxy keeps its slot across restarts. A
 * proxy runs at phase + k·interval (epoch time); at most `concurrency`
 * checks run at once, the rest wait their turn in order.
 *
 * One timer, armed for the earliest due proxy. `refresh` re-reads who is to
 * be checked (the service calls it on every inventory change and switch):
 * a new proxy gets its next phase, a proxy gone or switched off is forgotten
 * (its queued check dropped). A pause (sleep, battery) aborts the checks in
 * flight and stops the timer; on resume every proxy continues from its next
 * phase after now, so the checks missed while paused are not made up in a
 * burst. A timer that fires long after its time (a sleep nothing told of)
 * is treated the same way.
 */
import type { Timers } from '../polling/timers';

export interface ScheduledProxy {
  /** `${clusterId}/${vmid}`. */
  key: string;
  clusterId: string;
  vmid: number;
  name?: string;
  node: string;
}

export interface ScheduleOptions {
  timers: Timers;
  intervalMs: number;
  concurrency: number;
  /** The proxies to check now (running, with an address, not switched off). */
  targets(): Iterable<ScheduledProxy>;
  /** One check. A run whose signal aborted must not record anything. */
  run(target: ScheduledProxy, signal: AbortSignal): Promise<void>;
}

export type PauseReason = 'suspended' | 'on-battery';

/**
 * A turn missed by more than this was not delayed by other checks (they queue, the timer does not wait for
 * them): the process was frozen, a sleep no power event told of (browser mode). It is skipped, not made up.
 */
export const OVERSLEPT_MS = 60_000;

/** FNV-1a, 32 bits: cheap and stable across runs and platforms (a phase must not move on restart). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The proxy's offset within the interval, in whole milliseconds. */
export function phaseOf(key: string, intervalMs: number): number {
  return hash32(key) % intervalMs;
}

/** The first time phase + k·interval at or after `from`. */
export function nextSlot(phase: number, intervalMs: number, from: number): number {
  const k = Math.ceil((from - phase) / intervalMs);
  return phase + k * intervalMs;
}

interface Slot {
  target: ScheduledProxy;
  phase: number;
  at: number;
}

export class CheckSchedule {
  private intervalMs: number;
  private concurrency: number;
  private readonly slots = new Map<string, Slot>();
  private readonly queue: ScheduledProxy[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly pauses = new Set<PauseReason>();
  private timer: unknown;
  private stopped = false;

  constructor(private readonly options: ScheduleOptions) {
    this.intervalMs = options.intervalMs;
    this.concurrency = options.concurrency;
  }

  /** Re-reads the targets: new ones get their next phase, missing ones are forgotten. */
  refresh(): void {
    if (this.stopped) return;
    const now = this.options.timers.now();
    const seen = new Set<string>();
    for (const target of this.options.targets()) {
      seen.add(target.key);
      const slot = this.slots.get(target.key);
      if (slot) slot.target = target;
      else {
        const phase = phaseOf(target.key, this.intervalMs);
        this.slots.set(target.key, { target, phase, at: nextSlot(phase, this.intervalMs, now) });
      }
    }
    for (const key of this.slots.keys()) if (!seen.has(key)) this.slots.delete(key);
    for (let i = this.queue.length - 1; i >= 0; i--) if (!seen.has(this.queue[i]!.key)) this.queue.splice(i, 1);
    this.arm();
  }

  /** A new interval moves every phase (hash mod the new interval); a new limit applies to the next start. */
  configure(next: { intervalMs: number; concurrency: number }): void {
    const intervalChanged = next.intervalMs !== this.intervalMs;
    this.intervalMs = next.intervalMs;
    this.concurrency = next.concurrency;
    if (intervalChanged) {
      const now = this.options.timers.now();
      for (const [key, slot] of this.slots) {
        slot.phase = phaseOf(key, this.intervalMs);
        slot.at = nextSlot(slot.phase, this.intervalMs, now);
      }
    }
    this.pump();
    this.arm();
  }

  pause(reason: PauseReason): void {
    this.pauses.add(reason);
    this.disarm();
    this.queue.length = 0;
    // A check in flight while the machine falls asleep would fail for the sleep, not for the proxy.
    for (const controller of this.running.values()) controller.abort(new Error(`checks paused: ${reason}`));
  }

  resume(reason: PauseReason): void {
    if (!this.pauses.delete(reason) || this.pauses.size > 0 || this.stopped) return;
    const now = this.options.timers.now();
    for (const slot of this.slots.values()) if (slot.at < now) slot.at = nextSlot(slot.phase, this.intervalMs, now);
    this.arm();
  }

  get paused(): boolean {
    return this.pauses.size > 0;
  }

  /**
   * One extra check of the proxy within `delayMs` (the alerts' confirmation of a first failure, so "N failed checks in
   * a row" does not take N intervals); its regular turns stay on its phase. Unscheduled proxies are left alone.
   */
  checkSoon(key: string, delayMs: number): void {
    const slot = this.slots.get(key);
    if (!slot || this.stopped) return;
    slot.at = Math.min(slot.at, this.options.timers.now() + delayMs);
    this.arm();
  }

  /** When the proxy's next check is due, if it is scheduled. */
  nextRunAt(key: string): number | undefined {
    return this.slots.get(key)?.at;
  }

  get inFlight(): number {
    return this.running.size;
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
    this.queue.length = 0;
    this.slots.clear();
    for (const controller of this.running.values()) controller.abort(new Error('checks stopped'));
  }

  private disarm(): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.disarm();
    if (this.stopped || this.paused) return;
    let earliest = Infinity;
    for (const slot of this.slots.values()) earliest = Math.min(earliest, slot.at);
    if (earliest === Infinity) return;
    this.timer = this.options.timers.setTimeout(() => this.wake(), Math.max(0, earliest - this.options.timers.now()));
  }

  private wake(): void {
    this.timer = undefined;
    const now = this.options.timers.now();
    const due = [...this.slots.values()].filter((s) => s.at <= now).sort((a, b) => a.at - b.at);
    for (const slot of due) {
      const overslept = now - slot.at > OVERSLEPT_MS;
      // Still queued or running from its previous turn: that one counts for this turn too.
      const waiting = this.running.has(slot.target.key) || this.queue.some((t) => t.key === slot.target.key);
      if (!overslept && !waiting) this.queue.push(slot.target);
      slot.at = nextSlot(slot.phase, this.intervalMs, now + 1);
    }
    this.pump();
    this.arm();
  }

  private pump(): void {
    while (!this.paused && !this.stopped && this.running.size < this.concurrency && this.queue.length > 0) {
      const target = this.queue.shift()!;
      const controller = new AbortController();
      this.running.set(target.key, controller);
      void this.options
        .run(target, controller.signal)
        .catch(() => undefined)
        .finally(() => {
          if (this.running.get(target.key) === controller) this.running.delete(target.key);
          this.pump();
        });
    }
  }
}
