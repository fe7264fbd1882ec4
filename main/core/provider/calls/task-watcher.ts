/**
 * One task watcher per node: the state of every task waited on, on a node,
 * comes from one `GET /nodes/{node}/tasks` per cycle, not one status call
 * per task, so a bulk of twenty creates costs a node what one costs it.
 *
 * Waiters register a UPID. One loop per (client, node) wakes when the
 * earliest waiter is due (task-durations.ts: near its expected end, learned
 * per node, type and template), lists the node's tasks since the oldest
 * waiter's start (`source=all`: running ones from the `active` file, ended
 * ones from the archive with their exit status), and settles every waiter
 * whose task ended, due or not. A task the listing cannot tell about (not
 * listed, or an end without a status) gets one status call, only when that
 * waiter is due; so does a task still listed as running when its budget
 * runs out, since the status call asks the node whether the worker lives.
 *
 * Visibility: an API token sees the tasks it started itself, with or
 * without Sys.Audit (pve-manager PVE/API2/Tasks.pm `$check_task_user`:
 * "token only sees token tasks"; active tasks keep the UPID's
 * `user@realm!token`, which equals the token's own user id), so every task
 * the app starts is listed.
 *
 * A node's listings are capped by a token bucket (one per
 * LISTING_GAP_POLLS × `youngPollMs`, bursts of three): however many tasks
 * run, a node sees at most about four task-state requests a second from one
 * client, since one listing answers for every task on the node. The node's
 * pveproxy has three workers (pve-manager PVE/Service/pveproxy.pm
 * `max_workers => 3`), shared with the web GUI and every other client.
 * Issue 11 measured a lower cap (scripts/bench-bulk.ts, bench-core.ts):
 * one listing a second cut task-state requests from 5.3 to 3.3 per create
 * in a bulk of 20, but a clone's end is then seen up to a second late, and
 * that delay holds the storage's clone slot: the bulk took 23.0 s instead
 * of 19.8 s (2 a second) and one create 1.32× Proxmox's time instead of
 * 1.08×, so the cap stays where a single create meets its goal. An API without
 * the listing (the unit tests' fakes) is watched with one status call per due waiter.
 *
 * Long because one node's loop (NodeLoop) keeps its waiters, timer, bucket and seed as one state each cycle changes.
 */
import { ApiError } from '../../pve/errors';
import type { PveApi } from '../../pve/api';
import type { TaskListEntry } from '../../pve/schemas';
import { parseUpid } from '../../pve/upid';
import type { Logger } from '../../../log/logger';
import type { Budgets } from '../rules/budgets';
import { transient } from '../rules/errors';
import { cancelled } from './poll';
import {
  archivedObservation,
  DurationModel,
  durationKey,
  nextLook,
  observation,
  type Expectation,
  type LookSchedule,
} from './task-durations';

export type WatchSchedule = Pick<Budgets, 'youngPollMs' | 'youngForMs' | 'oldPollMs'>;

export interface WatchOptions {
  budgetMs: number;
  /** Named in the error when the budget runs out or the wait is cancelled. */
  what: string;
  signal?: AbortSignal | undefined;
  schedule: WatchSchedule;
}

/** How many entries one listing may bring back; a task cut off by it is asked about by its own status call. */
export const LISTING_LIMIT = 500;
/** How many clones of the archive seed the model (per node, once). */
export const SEED_LIMIT = 50;
/** Listings a node may get back to back (the bucket's size). */
const BUCKET_SIZE = 3;
/** One listing per this many `youngPollMs` (250 ms at the defaults; 4 gives one a second, see above). */
export const LISTING_GAP_POLLS = 1;

/** What a schedule in budget terms means for looks: the old young/old polls become the no-history cadence. */
export function lookScheduleOf(s: WatchSchedule): LookSchedule {
  return {
    minGapMs: Math.max(1, s.youngPollMs / 5),
    coldGapMs: 2 * s.youngPollMs,
    coldForMs: s.youngForMs,
    maxGapMs: s.oldPollMs,
  };
}

interface Waiter {
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
  what: string;
  signal: AbortSignal | undefined;
  settle: (result: { exitstatus: string } | { error: unknown }) => void;
}

export interface WatcherStats {
  listings: number;
  statusCalls: number;
  seeds: number;
}

class NodeLoop {
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
  ) {
    this.listingUnavailable = typeof api.nodeTasks !== 'function';
  }

  add(w: Waiter): void {
    this.waiters.add(w);
    if (!this.listingUnavailable && w.key.includes('/qmclone/') && !this.seed) this.seed = this.seedModel();
    const plan = () => {
      if (!this.waiters.has(w)) return;
      w.expectation = this.model.expect(w.key);
      w.nextDue = Math.min(w.deadline, w.registeredAt + nextLook(0, w.expectation, w.look));
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
    if (this.timer && this.timerAt <= due) return;
    this.clearTimer();
    this.timerAt = due;
    this.timer = setTimeout(() => void this.cycle(), Math.max(0, due - now));
  }

  private async cycle(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.busy || this.waiters.size === 0) return;
    this.busy = true;
    try {
      const now = this.now();
      this.refill(now, this.refillMs());
      this.tokens = Math.max(0, this.tokens - 1);
      const due = [...this.waiters].filter((w) => w.nextDue <= now + 1);
      if (this.listingUnavailable) await this.lookOneByOne(due);
      else await this.lookByListing(due);
    } finally {
      this.busy = false;
    }
    for (const w of this.waiters) {
      const elapsed = this.now() - w.registeredAt;
      if (w.nextDue <= this.now() + 1) w.nextDue = Math.min(w.deadline, w.registeredAt + nextLook(elapsed, w.expectation, w.look));
      else if (w.sawEarly) w.nextDue = Math.min(w.deadline, w.registeredAt + nextLook(w.nextDue - w.registeredAt, w.expectation, w.look));
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

export class TaskWatcher {
  readonly model = new DurationModel();
  private readonly loops = new Map<string, NodeLoop>();

  constructor(
    private readonly api: PveApi,
    private readonly options: { now?: () => number; log?: Logger } = {},
  ) {}

  /** Resolves with the task's exit status once it stops; rejects (transient) when the budget runs out or the signal fires. */
  wait(upid: string, o: WatchOptions): Promise<string> {
    const parsed = parseUpid(upid);
    if (o.signal?.aborted) return Promise.reject(cancelled(o.what));
    const loop = this.loopFor(parsed.node);
    const now = (this.options.now ?? Date.now)();
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => waiter.settle({ error: cancelled(o.what) });
      let done = false;
      const waiter: Waiter = {
        upid,
        key: durationKey(upid),
        starttime: parsed.starttime,
        user: parsed.user.split('!')[0]!,
        registeredAt: now,
        deadline: now + o.budgetMs,
        look: lookScheduleOf(o.schedule),
        refillMs: Math.max(1, LISTING_GAP_POLLS * o.schedule.youngPollMs),
        expectation: undefined,
        nextDue: Number.POSITIVE_INFINITY,
        lastRunning: 0,
        sawEarly: false,
        what: o.what,
        signal: o.signal,
        settle: (result) => {
          if (done) return;
          done = true;
          o.signal?.removeEventListener('abort', onAbort);
          loop.remove(waiter);
          if ('error' in result) reject(result.error);
          else resolve(result.exitstatus);
        },
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      loop.add(waiter);
    });
  }

  /** Requests made so far, per node (tests and the bench). */
  stats(): Record<string, WatcherStats> {
    const out: Record<string, WatcherStats> = {};
    for (const [node, loop] of this.loops) out[node] = { ...loop.stats };
    return out;
  }

  private loopFor(node: string): NodeLoop {
    let loop = this.loops.get(node);
    if (!loop) {
      loop = new NodeLoop(this.api, node, this.model, this.options.now ?? Date.now, this.options.log);
      this.loops.set(node, loop);
    }
    return loop;
  }
}

const watchers = new WeakMap<PveApi, TaskWatcher>();

/** The one watcher of a client: every wait on its tasks, from the provider or the services, shares its node loops and model. */
export function taskWatcherFor(api: PveApi, log?: Logger): TaskWatcher {
  let w = watchers.get(api);
  if (!w) {
    w = new TaskWatcher(api, log ? { log } : {});
    watchers.set(api, w);
  }
  return w;
}
