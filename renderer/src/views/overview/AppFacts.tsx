/** Which build is running and how (desktop or browser mode): what a bug report needs first. */
import { useConnection } from '../../stores/connection';

export function AppFacts() {
  const info = useConnection((s) => s.info);
  if (!info) return null;
  return (
    <section aria-labelledby="app-facts" className="app-facts">
      <h2 id="app-facts">This app</h2>
      <dl className="facts">
        <dt>App</dt>
        <dd>
          {info.name} {info.version}
        </dd>
        <dt>Running as</dt>
        <dd>{info.mode === 'electron' ? 'desktop app' : 'browser mode'}</dd>
        <dt>Runtime</dt>
        <dd>
          Node {info.runtime.node}
          {info.runtime.electron ? `, Electron ${info.runtime.electron}` : ''} on {info.runtime.platform}
        </dd>
      </dl>
    </section>
  );
}
