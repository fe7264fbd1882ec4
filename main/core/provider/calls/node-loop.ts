/**
 * One node's loop of the task watcher (task-watcher.ts, whose header says
 * what it is for and why its limits are what they are): the waiters on that
 * node, the timer set for the earliest due look, the bucket that caps the
 * node's listings, and the model's seed from the node's archive, as one
 * state each cycle changes. Long because those parts share that one state.
 */
import { ApiError } from '../../pve/errors';
import type { PveApi } from '../../pve/api';
import type { TaskListEntry } from '../../pve/schemas';
import type { Logger } from '../../../log/logger';
import { transient } from '../rules/errors';
import { cancelled } from './poll';
import {
  archivedObservation,
  durationKey,
  nextLook,
  observation,
  type DurationModel,
  type Expectation,
  type LookSchedule,
} from './task-durations';

/**
 * The task a wait goes beside (the seed's upload beside its clone, seed-beside-clone.ts): its `upid` is set once
 * that task's POST answered. While that task is waited on, the wait beside it makes no looks of its own: the caller
 * needs its end only with the other's, and the other's listings see it (one fewer read per create on the node).
 */
export interface Companion {
  upid?: string;
}

/** How many entries one listing may bring back; a task cut off by it is asked about by its own status call. */
export const LISTING_LIMIT = 500;
/** How many clones of the archive seed the model (per node, once). */
export const SEED_LIMIT = 50;
/** Listings a node may get back to back (the bucket's size). */
const BUCKET_SIZE = 3;
/** One listing per this many `youngPollMs` (250 ms at the defaults; 4 gives one a second, see above). */
export const LISTING_GAP_POLLS = 1;

export interface Waiter {
  upid: string;
  key: string;
  starttime: number;
  user: string;
  registeredAt: number;
  deadline: number;
  look: LookSchedule;
  refillMs: number;
  expectation: Expectation | undefined;
  /** Absolute ms of the next look; Infinity until the plan is known (the seed is still out). */
  nextDue: number;
  /** Elapsed ms at the last look that saw it running. */
  lastRunning: number;
  /** A listing just saw it running shortly before an early look it had planned: that look is skipped (see below). */
  sawEarly: boolean;
  beside: Companion | undefined;
  /** Held by its companion: no look of its own is planned (nextDue is the deadline). */
  held: boolean;
  what: string;
  signal: AbortSignal | undefined;
  settle: (result: { exitstatus: string } | { error: unknown }) => void;
}

export interface WatcherStats {
  listings: number;
  statusCalls: number;
  seeds: number;
}

export class NodeLoop {
  readonly waiters = new Set<Waiter>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private busy = false;
  private controller: AbortController | undefined;
  private tokens = BUCKET_SIZE;
  private refilledAt = 0;
  private seed: Promise<void> | undefined;
  private listingUnavailable: boolean;
  readonly stats: WatcherStats = { listings: 0, statusCalls: 0, seeds: 0 };

  constructor(
    private readonly api: PveApi,
    private readonly node: string,
    private readonly model: DurationModel,
    private readonly now: () => number,
    private readonly log: Logger | undefined,
    /** Whether any loop of the watcher waits on this UPID (a companion, which may run on another node). */
    private readonly isWaiting: (upid: string) => boolean,
  ) {
    this.listingUnavailable = typeof api.nodeTasks !== 'function';
  }

  add(w: Waiter): void {
    this.waiters.add(w);
    if (!this.listingUnavailable && w.key.includes('/qmclone/') && !this.seed) this.seed = this.seedModel();
    const plan = () => {
      if (!this.waiters.has(w)) return;
      w.expectation = this.model.expect(w.key);
      w.held = this.heldBack(w);
      w.nextDue = this.planned(w, 0);
      this.reschedule();
    };
    if (this.seed) void this.seed.then(plan);
    else plan();
  }

  remove(w: Waiter): void {
    this.waiters.delete(w);
    if (this.waiters.size === 0) {
      this.controller?.abort();
      this.clearTimer();
    }
  }

  private heldBack(w: Waiter): boolean {
    const other = w.beside?.upid;
    return other !== undefined && other !== w.upid && this.isWaiting(other);
  }

  /** The next look after `elapsedMs`: the schedule's, or the deadline while a companion holds it. */
  private planned(w: Waiter, elapsedMs: number): number {
    return w.held ? w.deadline : Math.min(w.deadline, w.registeredAt + nextLook(elapsedMs, w.expectation, w.look));
  }

  /** A companion started or ended somewhere: a wait it held looks at once (its end is wanted now), one it now holds waits. */
  companionsChanged(): void {
    let changed = false;
    for (const w of this.waiters) {
      if (!w.beside || w.nextDue === Number.POSITIVE_INFINITY) continue; // not planned yet: planning will ask
      const held = this.heldBack(w);
      if (held === w.held) continue;
      w.held = held;
      w.nextDue = held ? w.deadline : this.now();
      changed = true;
    }
    if (changed) this.reschedule();
  }

  private async seedModel(): Promise<void> {
    try {
      this.stats.seeds++;
      const entries = await this.api.nodeTasks!(this.node, { source: 'archive', typefilter: 'qmclone', limit: SEED_LIMIT });
      for (const e of entries) {
        if (e.starttime === undefined || e.endtime === undefined || !okStatus(e.status)) continue;
        const o = archivedObservation(e.starttime, e.endtime);
        if (o) this.model.observe(safeKey(e.upid), o);
      }
    } catch (e) {
      this.log?.debug('task history not read', { node: this.node, reason: e instanceof Error ? e.message : String(e) });
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private refill(now: number, refillMs: number): void {
    if (this.tokens >= BUCKET_SIZE) {
      this.refilledAt = now;
      return;
    }
    const gained = Math.floor((now - this.refilledAt) / refillMs);
    if (gained > 0) {
      this.tokens = Math.min(BUCKET_SIZE, this.tokens + gained);
      this.refilledAt += gained * refillMs;
    }
  }

  private refillMs(): number {
    let ms = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) ms = Math.min(ms, w.refillMs);
    return Number.isFinite(ms) ? ms : LISTING_GAP_POLLS * 250;
  }

  /** Arms the timer for the earliest due waiter, no sooner than the bucket allows. */
  reschedule(): void {
    if (this.busy || this.waiters.size === 0) return;
    let due = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) due = Math.min(due, w.nextDue);
    if (!Number.isFinite(due)) return this.clearTimer();
    const now = this.now();
    const refillMs = this.refillMs();
    this.refill(now, refillMs);
    if (this.tokens < 1) due = Math.max(due, this.refilledAt + refillMs);
    // Re-armed whenever the earliest due look moved, later too (a wait held by its companion, one settled early).
    if (this.timer && this.timerAt === due) return;
    this.clearTimer();
    this.timerAt = due;
    this.timer = setTimeout(() => void this.cycle(), Math.max(0, due - now));
  }

  private async cycle(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.busy || this.waiters.size === 0) return;
    const now = this.now();
    const due = [...this.waiters].filter((w) => w.nextDue <= now + 1);
    // What it was armed for moved later or went: no listing, only the timer for what is due next.
    if (due.length === 0) return this.reschedule();
    this.busy = true;
    try {
      this.refill(now, this.refillMs());
      this.tokens = Math.max(0, this.tokens - 1);
      if (this.listingUnavailable) await this.lookOneByOne(due);
      else await this.lookByListing(due);
    } finally {
      this.busy = false;
    }
    for (const w of this.waiters) {
      const elapsed = this.now() - w.registeredAt;
      if (w.nextDue <= this.now() + 1) w.nextDue = this.planned(w, elapsed);
      else if (w.sawEarly) w.nextDue = this.planned(w, w.nextDue - w.registeredAt);
      w.sawEarly = false;
    }
    this.reschedule();
  }

  private async lookByListing(due: Waiter[]): Promise<void> {
    const waiting = [...this.waiters];
    let since = Number.POSITIVE_INFINITY;
    for (const w of waiting) since = Math.min(since, w.starttime);
    const users = new Set(waiting.map((w) => w.user));
    this.controller = new AbortController();
    const sentAt = this.now();
    let entries: TaskListEntry[];
    try {
      this.stats.listings++;
      entries = await this.api.nodeTasks!(
        this.node,
        {
          source: 'all',
          since,
          limit: LISTING_LIMIT,
          ...(users.size === 1 ? { userfilter: [...users][0]! } : {}),
        },
        { signal: this.controller.signal, loop: true },
      );
    } catch (e) {
      if (this.waiters.size === 0) return;
      if (e instanceof ApiError && (e.status === 400 || e.status === 501)) {
        // A node that does not take these filters: watch its tasks one by one from now on.
        this.log?.info('task listing refused; watching tasks one by one', { node: this.node, status: e.status });
        this.listingUnavailable = true;
        return this.lookOneByOne(due);
      }
      // As when each waiter polled alone: the waits that were due fail with the request's error.
      for (const w of due) this.settle(w, { error: e });
      return;
    } finally {
      this.controller = undefined;
    }
    const seenAt = (sentAt + this.now()) / 2;
    const byUpid = new Map<string, TaskListEntry>();
    for (const e of entries) {
      const prior = byUpid.get(e.upid);
      if (!prior || ended(e)) byUpid.set(e.upid, e);
    }
    const unsure: Waiter[] = [];
    for (const w of waiting) {
      if (!this.waiters.has(w)) continue;
      const entry = byUpid.get(w.upid);
      const isDue = due.includes(w);
      if (entry && ended(entry)) {
        this.learn(w, seenAt, entry.status, entry);
        this.settle(w, { exitstatus: entry.status! });
      } else if (entry && running(entry)) {
        w.lastRunning = seenAt - w.registeredAt;
        if (isDue && seenAt >= w.deadline) unsure.push(w); // ask the node itself before giving up
        // Seen running less than a listing's gap before its planned early look (the probe before its expected end):
        // this listing was that look. Its tasks started together with others' (a bulk's clones, each create's seed
        // beside its clone), so their looks come in pairs a few ms apart, and each pair spent two of the node's
        // reads where one told the same (scripts/bench-bulk.ts BENCH_TIMELINE). Never the look at the expected end.
        else if (!isDue && w.nextDue - seenAt < w.refillMs && w.expectation && w.nextDue - w.registeredAt < w.expectation.expectedMs)
          w.sawEarly = true;
      } else if (isDue) {
        unsure.push(w);
      }
    }
    await this.lookOneByOne(unsure);
  }

  /** One status call per waiter: the fallback, and the only way when there is no listing. */
  private async lookOneByOne(waiters: Waiter[]): Promise<void> {
    await Promise.all(
      waiters.map(async (w) => {
        if (!this.waiters.has(w)) return;
        const sentAt = this.now();
        try {
          this.stats.statusCalls++;
          const status = await this.api.taskStatus(this.node, w.upid, { signal: w.signal, loop: true });
          if (!this.waiters.has(w)) return;
          const seenAt = (sentAt + this.now()) / 2;
          if (status.status === 'stopped') {
            this.learn(w, seenAt, status.exitstatus, {});
            this.settle(w, { exitstatus: status.exitstatus ?? '' });
          } else {
            w.lastRunning = seenAt - w.registeredAt;
            this.expireIfDue(w);
          }
        } catch (e) {
          if (this.waiters.has(w)) this.settle(w, { error: w.signal?.aborted ? cancelled(w.what) : e });
        }
      }),
    );
  }

  private expireIfDue(w: Waiter): void {
    const elapsed = this.now() - w.registeredAt;
    if (this.now() >= w.deadline) this.settle(w, { error: budgetExhausted(w.what, elapsed) });
  }

  /** Only tasks that did their work teach the model: a failure is usually quick and says nothing about the next run. */
  private learn(w: Waiter, seenAt: number, exitstatus: string | undefined, entry: Partial<Pick<TaskListEntry, 'starttime' | 'endtime'>>): void {
    if (!okStatus(exitstatus)) return;
    const o = observation(w.lastRunning, seenAt - w.registeredAt, entry);
    this.model.observe(w.key, o);
  }

  private settle(w: Waiter, result: { exitstatus: string } | { error: unknown }): void {
    if (!this.waiters.has(w)) return;
    this.remove(w);
    w.settle(result);
  }
}

const exhausted = new WeakSet<object>();

/** The wait's budget ran out while the task still ran: transient, as before (the next attempt picks the result up). */
function budgetExhausted(what: string, elapsedMs: number) {
  const e = transient(`waiting for ${what}: not done after ${Math.round(elapsedMs / 1000)} s`);
  exhausted.add(e);
  return e;
}

/** True for the error a wait gives when its budget runs out (not a failed request, not a cancel). */
export function isBudgetExhausted(e: unknown): boolean {
  return typeof e === 'object' && e !== null && exhausted.has(e);
}

function running(e: TaskListEntry): boolean {
  return (e.status === undefined || e.status.toUpperCase() === 'RUNNING') && e.endtime === undefined;
}

/** Ended, with an exit status the listing states (an end without a status asks the status call). */
function ended(e: TaskListEntry): boolean {
  return e.status !== undefined && e.status !== '' && e.status.toUpperCase() !== 'RUNNING';
}

function okStatus(status: string | undefined): boolean {
  return status === 'OK' || (status !== undefined && /^WARNINGS: \d+$/.test(status));
}

function safeKey(upid: string): string {
  try {
    return durationKey(upid);
  } catch {
    return `?/${upid}`;
  }
}

