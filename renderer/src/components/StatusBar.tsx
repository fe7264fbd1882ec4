import { useConnection } from '../stores/connection';
import { useUi, type ThemeChoice } from '../stores/ui';

const linkText = { connecting: 'Connecting to main…', open: 'Connected to main', closed: 'Disconnected from main, reconnecting…' } as const;

export function StatusBar() {
  const { link, transport, info, lastStatus } = useConnection();
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  return (
    <footer className="status-bar">
      <span role="status" aria-label="Connection" className={`link link-${link}`}>
        <span className="dot" aria-hidden="true" />
        {linkText[link]}
        {transport ? ` (${transport === 'electron' ? 'desktop' : 'browser mode'})` : ''}
      </span>
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
