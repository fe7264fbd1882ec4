/**
 * The shell's task panel, like the Proxmox UI's: running and recent tasks
 * from any view, each with its state, target, cluster, start time and
 * duration, and one click to its log (the Tasks view opened on it). The
 * status bar's running count opens and closes it.
 */
import type { TaskView } from '../../../shared/channels/tasks';
import { sortedTasks, useTasks } from '../stores/tasks';
import { showTask, useTaskPanel } from '../stores/task-panel';
import { useUi } from '../stores/ui';
import { useNow } from '../format/clock';
import { isLive, taskColumns, taskName, useClusterWords } from '../views/tasks/task-columns';
import { DataTable, type DataColumn } from './common/DataTable';
import './task-panel.css';

export const TASK_PANEL_ID = 'task-panel';
const RECENT = 12;

const logColumn: DataColumn<TaskView> = {
  id: 'log',
  header: <span className="sr-only">Log</span>,
  align: 'end',
  cell: (t) => (
    <button type="button" aria-label={`Show the log of ${taskName(t)}`} onClick={() => showTask(t.id)}>
      Log
    </button>
  ),
};

export function TaskPanel() {
  const open = useTaskPanel((s) => s.open);
  const setOpen = useTaskPanel((s) => s.setOpen);
  const tasks = useTasks((s) => s.tasks);
  const setView = useUi((s) => s.setView);
  const cluster = useClusterWords();
  // A bulk create's parent runs nothing itself: its proxies are listed, each with its own log.
  const list = sortedTasks(tasks)
    .filter((t) => t.kind !== 'create-proxies')
    .slice(0, RECENT);
  const now = useNow(open && list.some(isLive));
  if (!open) return null;
  const c = taskColumns({ now, cluster });
  return (
    <section
      id={TASK_PANEL_ID}
      className="task-panel"
      aria-label="Running and recent tasks"
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <header className="task-panel-head">
        <h2>Running and recent tasks</h2>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setView('tasks');
            setOpen(false);
          }}
        >
          All tasks
        </button>
        <button type="button" aria-label="Close the task panel" onClick={() => setOpen(false)}>
          ✕
        </button>
      </header>
      <DataTable
        label="Running and recent tasks"
        columns={[c.state, c.task, c.cluster, c.started, c.duration, logColumn]}
        rows={list}
        rowKey={(t) => t.id}
        onActivate={(t) => showTask(t.id)}
        empty={<p className="muted task-panel-empty">No tasks yet.</p>}
      />
    </section>
  );
}
