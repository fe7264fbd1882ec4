/**
 * The notices main sends in browser mode (a proxy got its address, a
 * create failed, an alert raised or resolved) as toasts: what happened, a
 * way to the task, and a close. They take a row of the app's grid under the
 * content (notices.css), so one that stays until dismissed (a bad one: the
 * demo's node down) never covers a control. A bad notice is an alert to
 * assistive technology, the others a status. The desktop shell shows the
 * same notices as system notifications.
 */
import { useEffect } from 'react';
import { useTasks, type Toast } from '../stores/tasks';
import { useUi } from '../stores/ui';
import './notices.css';

const STAY_MS: Record<Toast['tone'], number | undefined> = { ok: 10_000, warn: undefined, bad: undefined };

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useTasks((s) => s.dismissToast);
  const select = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  useEffect(() => {
    const ms = STAY_MS[toast.tone];
    if (ms === undefined) return;
    const timer = setTimeout(() => dismiss(toast.key), ms);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);
  return (
    <li className={`toast tone-${toast.tone}`}>
      {/* The live region is inside the item: a list holds only list items. */}
      <div role={toast.tone === 'bad' ? 'alert' : 'status'}>
        <p className="toast-title">{toast.title}</p>
        <p className="toast-body">{toast.body}</p>
      </div>
      <div className="toast-actions">
        {toast.taskId && (
          <button
            type="button"
            onClick={() => {
              select(toast.taskId);
              setView('tasks');
              dismiss(toast.key);
            }}
          >
            Show task
          </button>
        )}
        <button type="button" aria-label={`Dismiss: ${toast.title}`} onClick={() => dismiss(toast.key)}>
          Dismiss
        </button>
      </div>
    </li>
  );
}

export function Toasts() {
  const toasts = useTasks((s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <ul className="toasts" aria-label="Notifications">
      {toasts.map((t) => (
        <ToastItem key={t.key} toast={t} />
      ))}
    </ul>
  );
}
