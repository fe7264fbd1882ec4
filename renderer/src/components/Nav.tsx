import { unacknowledgedCount, useAlerts } from '../stores/alerts';
import { useUi, views } from '../stores/ui';

export function Nav() {
  const current = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  // Open alerts nobody has acknowledged yet: a count beside Alerts, named for assistive technology.
  const unacknowledged = useAlerts((s) => unacknowledgedCount(s.alerts));
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
              {v.id === 'alerts' && unacknowledged > 0 && (
                <>
                  <span className="nav-badge" aria-hidden="true">
                    {unacknowledged}
                  </span>
                  <span className="sr-only"> ({unacknowledged} open)</span>
                </>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
