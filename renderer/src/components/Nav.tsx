import { useUi, views } from '../stores/ui';

export function Nav() {
  const current = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  return (
    <nav className="nav" aria-label="Views">
      <div className="brand" aria-hidden="true">
        Egress Desk
      </div>
      <ul>
        {views.map((v, i) => (
          <li key={v.id}>
            <button
              type="button"
              className="nav-item"
              aria-current={current === v.id ? 'page' : undefined}
              aria-keyshortcuts={`Control+${i + 1}`}
              onClick={() => setView(v.id)}
            >
              {v.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
