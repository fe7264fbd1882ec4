/**
 * Follows a Proxmox task's log while the step that started it runs AND a
 * user is watching it (the Tasks view shows that task: `tasks.watchLog`):
 * reads the lines after the last one seen, every `intervalMs` (less often
 * while the log stays quiet, up to four intervals apart), and once more when
 * the step ends, so the last lines (`TASK OK`) are never missed. Lines are
 * kept in memory per UPID (bounded) and pushed as `tasks.log` events.
 *
 * Why only watched tasks (issue 11): every read is a request to the node's
 * pveproxy, which has three workers (pve-manager PVE/Service/pveproxy.pm
 * `max_workers => 3`) shared with the GUI and every other client. Following
 * every task of a bulk of twenty live cost ~11 log reads per create, 40 % of
 * all requests. Nothing else needs the lines as the task runs: the journal
 * keeps steps and outcomes, not log text, and the Tasks view reads a log
 * page itself when it shows one (`tasks.log` request). So a task nobody
 * watches is not read at all; when it is watched the follower starts (from
 * line 0: the view merges lines by number) and stops when it is not.
 *
 * Issue 22: every read is a loop read (api.ts CallOptions `loop`): the
 * client holds it to the node's pace whatever the node answers. Paging is
 * bounded too: it goes on while pages come full, but only while the step runs
 * and is watched, at most MAX_PAGES a read, and only for lines numbered past
 * the last one seen (a node that answers the same full page again brings
 * nothing new, so the reading stops); after the step ends, one last read of
 * at most MAX_PAGES for the tail. Proxmox's placeholder for an empty log
 * (`{n: 1, t: "no content"}`) never reaches here: schemas.ts drops it, so the
 * real first line, also numbered 1, is not skipped (issue 25).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseUpid, type PveApi } from '../../core';
import type { Logger } from '../../log/logger';

export interface LogLine {
  n: number;
  t: string;
}

const MAX_LINES_KEPT = 2000;
const PAGE = 500;
/** Pages one read may bring: what is kept (more would be dropped at once). */
const MAX_PAGES = MAX_LINES_KEPT / PAGE;
/** The longest gap between reads of a quiet log, in intervals. */
const MAX_BACKOFF = 4;

export interface FollowOptions {
  api: PveApi;
  upid: string;
  intervalMs: number;
  /** True while the step that waits on this task runs. */
  live: () => boolean;
  /** True while a user watches the task (default: always). Following stops once it is false; a last read only when the step ended. */
  watched?: () => boolean;
  signal: AbortSignal;
  onLines: (lines: LogLine[]) => void;
  log: Logger;
}

export async function followUpidLog(o: FollowOptions): Promise<LogLine[]> {
  const { node } = parseUpid(o.upid);
  const kept: LogLine[] = [];
  let next = 0;
  const watched = o.watched ?? (() => true);
  /** Reads the lines after the last one seen, a page at a time while pages come full and `more()` holds. */
  const readNew = async (more: () => boolean): Promise<boolean> => {
    let any = false;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await o.api.taskLog(node, o.upid, { start: next, limit: PAGE }, { signal: o.signal, loop: true });
      // Lines are numbered from 1 (pve-common Tools.pm dump_logfile `n => $count`): only those past the last seen are new.
      const fresh = page.lines.filter((l) => l.n > next);
      if (fresh.length === 0) return any;
      any = true;
      next = fresh[fresh.length - 1]!.n;
      kept.push(...fresh);
      if (kept.length > MAX_LINES_KEPT) kept.splice(0, kept.length - MAX_LINES_KEPT);
      o.onLines(fresh);
      if (page.lines.length < PAGE || !more()) return any;
    }
    return any;
  };
  const following = () => o.live() && watched() && !o.signal.aborted;
  try {
    // A quiet task (a long copy logs little) is read less often: the gap grows by half after each read
    // that brought nothing, up to MAX_BACKOFF times the interval, and snaps back when lines come.
    let gap = o.intervalMs;
    while (following()) {
      const fresh = await readNew(following);
      gap = fresh ? o.intervalMs : Math.min(o.intervalMs * MAX_BACKOFF, gap * 1.5);
      await sleep(gap, undefined, { signal: o.signal });
    }
    // The step ended (not merely the watch): one last read, so `TASK OK` is never missed, even if the view that
    // watched stopped watching the moment the task ended. At most MAX_PAGES pages, then it is over.
    if (!o.signal.aborted && !o.live()) await readNew(() => !o.signal.aborted);
  } catch (e) {
    // The log is a view; a failed read must not fail the task.
    if (!o.signal.aborted) o.log.info('task log follow stopped', { upid: o.upid, reason: e instanceof Error ? e.message : String(e) });
  }
  return kept;
}
