import { useConnection } from '../stores/connection';
import { countRunning, useTasks } from '../stores/tasks';
import { useUi, type ThemeChoice } from '../stores/ui';
import { useNewProxyShortcut } from '../views/create/open-state';

/** Running and queued tasks, on screen from any view (a status, not a button, so "Tasks" names one control only). */
function RunningTasks() {
  const running = useTasks((s) => countRunning(s.tasks));
  return (
    <span role="status" aria-label="Running tasks" className={`running-tasks${running ? ' busy' : ''}`}>
      {running === 0 ? 'No task running' : `${running} ${running === 1 ? 'task' : 'tasks'} running`}
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
      <span role="status" aria-label="Connection" className={`link link-${link}`}>
        <span className="dot" aria-hidden="true" />
        {linkText[link]}
        {transport ? ` (${transport === 'electron' ? 'desktop' : 'browser mode'})` : ''}
      </span>
      <RunningTasks />
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
