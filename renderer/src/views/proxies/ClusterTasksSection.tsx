/**
 * The drawer's "Proxmox task history" (issue 23): every task Proxmox ran on
 * this VM, whoever started it (the Proxmox UI, the operator, a backup job,
 * this app), on every node it may have lived on, newest first and bounded;
 * each with its log, read a page at a time when asked. Reads only.
 */
import { useEffect, useState } from 'react';
import type { VmTaskHistory } from '../../../../shared/channels/vm-meta';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { StateBadge } from '../../components/common/StateBadge';
import { formatDateTime, formatDuration } from '../../format';
import { useTasks } from '../../stores/tasks';
import type { ProxyRow } from './rows';
import './vm-meta.css';

/** Tasks listed; Proxmox's own default page is 50. */
const LIMIT = 50;
const LOG_LINES = 500;

const stateOf = (status: string) =>
  status === 'RUNNING' ? 'running' : status === 'OK' ? 'succeeded' : status.startsWith('WARNINGS') ? 'warn' : 'failed';
const at = (seconds: number) => formatDateTime(new Date(seconds * 1000).toISOString());

interface OpenLog {
  upid: string;
  lines?: { n: number; t: string }[];
  total?: number;
  error?: AppErrorValue;
}

export function ClusterTasksSection({ row }: { row: ProxyRow }) {
  const api = useTasks((s) => s.api);
  const [read, setRead] = useState<{ value?: VmTaskHistory; error?: AppErrorValue }>();
  const [log, setLog] = useState<OpenLog>();
  const name = row.name ?? '';

  useEffect(() => {
    if (!api || !name) return;
    let current = true;
    setLog(undefined);
    void api.request['vm.taskHistory']({ clusterId: row.clusterId, vmid: row.vmid, name, limit: LIMIT }).then((a) => {
      if (current) setRead(a.ok ? { value: a.value } : { error: a.error });
    });
    return () => {
      current = false;
    };
  }, [api, row.clusterId, row.vmid, name]);

  const showLog = async (upid: string) => {
    if (!api) return;
    if (log?.upid === upid) return setLog(undefined);
    setLog({ upid });
    const a = await api.request['vm.taskLog']({ clusterId: row.clusterId, vmid: row.vmid, upid, limit: LOG_LINES });
    setLog(a.ok ? { upid, lines: a.value.lines, total: a.value.total } : { upid, error: a.error });
  };

  const value = read?.value;
  return (
    <section className="drawer-section" aria-label="Proxmox task history">
      <h3>Proxmox task history</h3>
      <p className="muted">Every task Proxmox ran on VM {row.vmid}, whoever started it, on every node.</p>
      {read?.error && <ErrorNotice error={read.error} title="The task history could not be read" />}
      {!read && name && <p className="muted">Reading the task lists of the nodes…</p>}
      {value && value.tasks.length === 0 && <p className="muted">Proxmox lists no task for this VM.</p>}
      {value && value.tasks.length > 0 && (
        <ul className="cluster-tasks" aria-label="Proxmox tasks">
          {value.tasks.map((t) => (
            <li key={t.upid}>
              <div className="cluster-task-head">
                <span className="mono">{t.type}</span> <StateBadge state={stateOf(t.status)} label={t.status} />
                <button
                  type="button"
                  className="cluster-task-log-button"
                  aria-expanded={log?.upid === t.upid}
                  onClick={() => void showLog(t.upid)}
                >
                  {log?.upid === t.upid ? 'Hide the log' : 'Show the log'}
                  <span className="sr-only">
                    {' '}
                    of {t.type} on {t.node}
                  </span>
                </button>
              </div>
              <div className="muted cluster-task-facts">
                {t.node} · <span className="mono">{t.user}</span> · {at(t.starttime)}
                {t.endtime !== undefined ? ` (${formatDuration(t.endtime - t.starttime)})` : ''}
              </div>
              {log?.upid === t.upid && <LogView log={log} type={t.type} />}
            </li>
          ))}
        </ul>
      )}
      {value?.truncated && <p className="muted">The {LIMIT} newest tasks; older ones are in the Proxmox UI.</p>}
      {value?.unread.map((u) => (
        <p key={u.node} className="muted">
          {u.node} was not read: {u.reason}. Tasks that ran there are not listed.
        </p>
      ))}
    </section>
  );
}

function LogView({ log, type }: { log: OpenLog; type: string }) {
  return (
    <div className="cluster-task-log">
      {log.error && <ErrorNotice error={log.error} title="The task log could not be read" />}
      {!log.lines && !log.error && <p className="muted">Reading the log…</p>}
      {log.lines && (
        <>
          <pre aria-label={`Log of ${type}`}>{log.lines.map((l) => l.t).join('\n') || '(empty)'}</pre>
          {log.total !== undefined && log.total > log.lines.length && (
            <p className="muted">
              The first {log.lines.length} of {log.total} lines; the whole log is in the Proxmox UI (the node’s Task History).
            </p>
          )}
        </>
      )}
    </div>
  );
}
