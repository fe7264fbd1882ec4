/**
 * Follows a Proxmox task's log while the step that started it runs: reads
 * the lines after the last one seen, every `intervalMs`, and once more when
 * the step ends, so the last lines (`TASK OK`) are never missed. Lines are
 * kept in memory per UPID (bounded) and pushed as `tasks.log` events.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PveApi } from '../../core/pve/api';
import { parseUpid } from '../../core/pve/upid';
import type { Logger } from '../../log/logger';

export interface LogLine {
  n: number;
  t: string;
}

const MAX_LINES_KEPT = 2000;
const PAGE = 500;

export interface FollowOptions {
  api: PveApi;
  upid: string;
  intervalMs: number;
  /** True while the step that waits on this task runs. */
  live: () => boolean;
  signal: AbortSignal;
  onLines: (lines: LogLine[]) => void;
  log: Logger;
}

export async function followTaskLog(o: FollowOptions): Promise<LogLine[]> {
  const { node } = parseUpid(o.upid);
  const kept: LogLine[] = [];
  let next = 0;
  const readNew = async () => {
    for (;;) {
      const page = await o.api.taskLog(node, o.upid, { start: next, limit: PAGE }, { signal: o.signal });
      if (page.lines.length === 0) return;
      next += page.lines.length;
      kept.push(...page.lines);
      if (kept.length > MAX_LINES_KEPT) kept.splice(0, kept.length - MAX_LINES_KEPT);
      o.onLines(page.lines);
      if (page.lines.length < PAGE) return;
    }
  };
  try {
    while (o.live() && !o.signal.aborted) {
      await readNew();
      await sleep(o.intervalMs, undefined, { signal: o.signal });
    }
    if (!o.signal.aborted) await readNew();
  } catch (e) {
    // The log is a view; a failed read must not fail the task.
    if (!o.signal.aborted) o.log.info('task log follow stopped', { upid: o.upid, reason: e instanceof Error ? e.message : String(e) });
  }
  return kept;
}
