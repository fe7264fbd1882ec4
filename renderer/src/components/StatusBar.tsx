import { useConnection } from '../stores/connection';
import { useTaskPanel } from '../stores/task-panel';
import { countRunning, useTasks } from '../stores/tasks';
import { useUi, type ThemeChoice } from '../stores/ui';
import { useNewProxyShortcut } from '../views/create/open-state';
import { TASK_PANEL_ID, TaskPanel } from './TaskPanel';
import { Toasts } from './Toasts';

/**
 * Running and queued tasks, on screen from any view. With none it is plain words that do nothing; while tasks run
 * the count is a button that opens the task panel (running and recent tasks, each one click from its log).
 */
function RunningTasks() {
  const running = useTasks((s) => countRunning(s.tasks));
  const open = useTaskPanel((s) => s.open);
  const toggle = useTaskPanel((s) => s.toggle);
  const words = `${running} ${running === 1 ? 'task' : 'tasks'} running`;
  return (
    <span role="status" aria-label="Running tasks" className="running-tasks">
      {running === 0 ? (
        'No task running'
      ) : (
        <button
          type="button"
          className="running-tasks-toggle"
          aria-expanded={open}
          aria-controls={open ? TASK_PANEL_ID : undefined}
          title={open ? 'Hide the task panel' : 'Show running and recent tasks'}
          onClick={toggle}
        >
          {words}
        </button>
      )}
    </span>
  );
}

const linkText = { connecting: 'Connecting to main…', open: 'Connected to main', closed: 'Disconnected from main, reconnecting…' } as const;

export function StatusBar() {
  const { link, transport, info, lastStatus } = useConnection();
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  // The status bar is always on screen, so the app-wide Ctrl+N lives with it.
  useNewProxyShortcut();
  return (
    <footer className="status-bar">
      <TaskPanel />
      <span role="status" aria-label="Connection" className={`link link-${link}`}>
        <span className="dot" aria-hidden="true" />
        {linkText[link]}
        {transport ? ` (${transport === 'electron' ? 'desktop' : 'browser mode'})` : ''}
      </span>
      <RunningTasks />
      <Toasts />
      {info && <span aria-label="Version">v{info.version}</span>}
      {lastStatus && <span aria-label="Main uptime">main up {Math.floor(lastStatus.uptimeSeconds)} s</span>}
      <label className="theme-picker">
        Theme
        <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)}>
          <option value="system">System</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
    </footer>
  );
}
