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
 * One node's loop, its waiters, timer, bucket and seed, is node-loop.ts.
 */
import { parseUpid } from '../../pve/upid';
import type { PveApi } from '../../pve/api';
import type { Logger } from '../../../log/logger';
import type { Budgets } from '../rules/budgets';
import { cancelled } from './poll';
import { LISTING_GAP_POLLS, NodeLoop, type Companion, type Waiter, type WatcherStats } from './node-loop';
import { DurationModel, durationKey, type LookSchedule } from './task-durations';

export { isBudgetExhausted, type Companion } from './node-loop';

export type WatchSchedule = Pick<Budgets, 'youngPollMs' | 'youngForMs' | 'oldPollMs'>;

export interface WatchOptions {
  budgetMs: number;
  /** Looked at only with the companion's looks while the companion is waited on (see Companion). */
  beside?: Companion | undefined;
  /** Named in the error when the budget runs out or the wait is cancelled. */
  what: string;
  signal?: AbortSignal | undefined;
  schedule: WatchSchedule;
}

/** What a schedule in budget terms means for looks: the old young/old polls become the no-history cadence. */
export function lookScheduleOf(s: WatchSchedule): LookSchedule {
  return {
    minGapMs: Math.max(1, s.youngPollMs / 5),
    coldGapMs: 2 * s.youngPollMs,
    coldForMs: s.youngForMs,
    maxGapMs: s.oldPollMs,
  };
}

export class TaskWatcher {
  readonly model = new DurationModel();
  private readonly loops = new Map<string, NodeLoop>();
  /** UPIDs waited on, with how many waits each has, for the companions (WatchOptions.beside). */
  private readonly waiting = new Map<string, number>();

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
        // The user part only (issue 25): Tasks.pm node_tasks matches userfilter after $convert_token_task split an
        // ended token task into user and tokenid, so the whole token id finds running tasks and never ended ones.
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
        beside: o.beside,
        held: false,
        settle: (result) => {
          if (done) return;
          done = true;
          o.signal?.removeEventListener('abort', onAbort);
          loop.remove(waiter);
          this.count(upid, -1);
          if ('error' in result) reject(result.error);
          else resolve(result.exitstatus);
        },
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      this.count(upid, +1);
      loop.add(waiter);
    });
  }

  private count(upid: string, by: 1 | -1): void {
    const n = (this.waiting.get(upid) ?? 0) + by;
    if (n > 0) this.waiting.set(upid, n);
    else this.waiting.delete(upid);
    // Only a wait's first start and last end change what a companion holds.
    if (n === 0 || (by === 1 && n === 1)) for (const loop of this.loops.values()) loop.companionsChanged();
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
      loop = new NodeLoop(this.api, node, this.model, this.options.now ?? Date.now, this.options.log, (upid) => this.waiting.has(upid));
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
