/**
 * A Proxmox task log like the Proxmox web UI's task viewer: monospace,
 * numbered lines, following the end while the task runs (unless the admin
 * scrolled up), read a page at a time. Lines live in the tasks store.
 */
import { useEffect, useRef } from 'react';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { logKey, useTasks, type LogLine } from '../../stores/tasks';

const PAGE = 500;

/** The first missing stretch of lines, as a 0-based start and a count, or undefined when none is missing. */
export function firstGap(lines: readonly LogLine[], total: number | undefined): { start: number; count: number } | undefined {
  let expected = 1;
  for (const l of lines) {
    if (l.n > expected) return { start: expected - 1, count: l.n - expected };
    expected = l.n + 1;
  }
  if (total !== undefined && total >= expected) return { start: expected - 1, count: total - expected + 1 };
  return undefined;
}

export function TaskLog({ taskId, upid, live }: { taskId: string; upid: string; live: boolean }) {
  const log = useTasks((s) => s.logs[logKey(taskId, upid)]);
  const loadLog = useTasks((s) => s.loadLog);
  const watchLog = useTasks((s) => s.watchLog);
  const box = useRef<HTMLDivElement>(null);
  const pinnedToEnd = useRef(true);

  useEffect(() => {
    if (!log || log.lines.length === 0) void loadLog(taskId, upid, 0, PAGE);
    // Read once per log shown; later lines arrive as events.
  }, [taskId, upid]);

  // While shown and running, main follows this log live; nobody else makes it read logs (issue 11).
  useEffect(() => (live ? watchLog(taskId) : undefined), [taskId, live]);

  useEffect(() => {
    const el = box.current;
    if (el && live && pinnedToEnd.current) el.scrollTop = el.scrollHeight;
  }, [log?.lines.length, live]);

  const lines = log?.lines ?? [];
  const gap = firstGap(lines, log?.total);
  return (
    <div className="task-log">
      {log?.error && (
        <ErrorNotice
          error={log.error}
          title="The Proxmox task log could not be read"
          onRetry={() => void loadLog(taskId, upid, gap?.start ?? 0, PAGE)}
        />
      )}
      <div
        ref={box}
        className="task-log-lines"
        role="log"
        aria-label={`Proxmox task log ${upid}`}
        aria-live={live ? 'polite' : 'off'}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinnedToEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {lines.length === 0 && !log?.error && <div className="task-log-empty">{log ? 'No lines yet.' : 'Reading the log…'}</div>}
        {lines.map((l) => (
          <div key={l.n} className="task-log-line">
            <span className="task-log-n" aria-hidden="true">
              {l.n}
            </span>
            <span className="task-log-t">{l.t}</span>
          </div>
        ))}
      </div>
      <div className="task-log-footer">
        <span>
          {lines.length} {lines.length === 1 ? 'line' : 'lines'}
          {log?.total !== undefined && log.total > lines.length ? ` of ${log.total}` : ''}
          {live ? ', following' : ''}
        </span>
        {gap && (
          <button type="button" onClick={() => void loadLog(taskId, upid, gap.start, Math.min(PAGE, gap.count))}>
            Load lines {gap.start + 1}–{gap.start + Math.min(PAGE, gap.count)}
          </button>
        )}
      </div>
    </div>
  );
}
