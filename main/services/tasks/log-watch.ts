/**
 * Issue 11: a Proxmox task's log is followed live only while a user watches
 * that task (the Tasks view shows it and says so with `tasks.watchLog`);
 * log-follower.ts says why. Counted per subscription (several windows may
 * watch). Also the one-off read of a page of a log.
 */
import { AppError } from '../../errors/app-error';
import { followUpidLog } from './log-follower';
import type { ManagerParts } from './manager-parts';

export type LogLines = { id: string; upid: string; lines: { n: number; t: string }[] };

export interface LogWatchOptions {
  parts: ManagerParts;
  publish: (payload: LogLines) => void;
  intervalMs: number;
  /** The cancel signal of a task's run while it runs. */
  runningSignal(id: string): AbortSignal | undefined;
}

export function createLogWatch({ parts, publish, intervalMs, runningSignal }: LogWatchOptions) {
  const { store, log } = parts;
  const watching = new Map<string, number>();
  /** `<task id>|<upid>` being followed now, so a second watch does not start a second follower. */
  const following = new Set<string>();

  /** Follows a Proxmox task's log while the step that started it runs (or once, for a step just ended). */
  function follow(id: string, upid: string, signal: AbortSignal, once = false): void {
    if (!watching.has(id)) return;
    const key = `${id}|${upid}`;
    if (following.has(key)) return;
    following.add(key);
    const task = parts.mustGet(id);
    const live = () => {
      const t = store.get(id);
      return !once && t?.state === 'running' && t.steps.some((s) => s.upid === upid && s.state === 'running');
    };
    void followUpidLog({
      api: parts.clusterOf(task).api,
      upid,
      intervalMs,
      live,
      watched: () => watching.has(id),
      signal,
      log,
      onLines: (lines) => publish({ id, upid, lines }),
    }).finally(() => following.delete(key));
  }

  /**
   * A user starts (`on`) or stops watching a task's log. Starting follows its running Proxmox task live; a step that
   * ended in the last few seconds (between the view's own read and this call) gets one last read, so its `TASK OK`
   * is not missed.
   */
  function watchLog(id: string, on: boolean): void {
    const n = (watching.get(id) ?? 0) + (on ? 1 : -1);
    if (n > 0) watching.set(id, n);
    else watching.delete(id);
    const t = store.get(id);
    if (!on || !t) return;
    const recent = t.state === 'running' || (t.endedAt !== undefined && parts.now().getTime() - Date.parse(t.endedAt) < 10_000);
    if (!recent) return;
    const running = runningSignal(id);
    for (const s of t.steps) {
      if (!s.upid) continue;
      if (s.state === 'running' && t.state === 'running' && running) follow(id, s.upid, running);
      else if (s.state !== 'pending') follow(id, s.upid, AbortSignal.timeout(30_000), true);
    }
  }

  /** A page of one of the task's Proxmox task logs, read from its node. */
  async function readLog(id: string, upid: string, start: number, limit: number) {
    const task = parts.mustGet(id);
    const entry = task.upids.find((u) => u.upid === upid);
    if (!entry)
      throw new AppError('not-found', 'This task started no Proxmox task with that id.', 'Pick a Proxmox task from the task’s steps.');
    const api = parts.clusterOf(task).api;
    const node = upid.split(':')[1] ?? entry.node;
    const [page, status] = await Promise.all([api.taskLog(node, upid, { start, limit }), api.taskStatus(node, upid)]);
    return { lines: page.lines, total: page.total, running: status.status === 'running' };
  }

  return { follow, watchLog, readLog };
}
