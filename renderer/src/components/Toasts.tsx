/**
 * The notices main sends in browser mode (a proxy got its address, a create
 * failed, an alert raised), in one place: the status bar. The latest is one
 * line there (what happened, a way to it, a close); a count beside it opens
 * them all in a panel above the status bar, which closes on Escape. They
 * take no room of the view (issue 23: two notices had left the Proxies table
 * 270 px tall). A notice of an alert follows the alert: acknowledged or
 * resolved (in any window), it goes; its words and time are the Alerts
 * view's. A bad notice is an alert to assistive technology, the others a
 * status. The desktop shell shows the same notices as system notifications.
 */
import { useEffect, useRef, useState } from 'react';
import type { AlertView } from '../../../shared/channels/alerts';
import { alertRuleTitle } from '../../../shared/domain/alert-rules';
import { useAlerts } from '../stores/alerts';
import { useTasks, type Toast } from '../stores/tasks';
import { useUi } from '../stores/ui';
import { alertTime } from '../views/alerts/alert-time';
import './notices.css';

const STAY_MS: Record<Toast['tone'], number | undefined> = { ok: 10_000, warn: undefined, bad: undefined };
export const NOTICE_PANEL_ID = 'notice-panel';

interface Notice extends Toast {
  alert?: AlertView;
}

/** An alert's notice lives while its alert is open and not acknowledged (unknown yet: it lives). */
function liveNotices(toasts: Toast[], alerts: Record<number, AlertView>): Notice[] {
  const out: Notice[] = [];
  for (const t of toasts) {
    if (t.alertId === undefined) {
      out.push(t);
      continue;
    }
    const alert = alerts[t.alertId];
    if (alert && (alert.resolvedAt || alert.acknowledgedAt)) continue;
    if (!alert) {
      out.push(t);
      continue;
    }
    const rule = alertRuleTitle(alert.rule);
    out.push({ ...t, alert, title: `Alert: ${rule}, ${alert.label}`, body: `${alert.reason} Raised ${alertTime(alert.raisedAt)}.` });
  }
  return out;
}

function useNotices(): Notice[] {
  const toasts = useTasks((s) => s.toasts);
  const alerts = useAlerts((s) => s.alerts);
  const dismiss = useTasks((s) => s.dismissToast);
  const notices = liveNotices(toasts, alerts);
  // A notice whose alert was acknowledged or resolved leaves the store too.
  useEffect(() => {
    const live = new Set(liveNotices(toasts, alerts).map((n) => n.key));
    for (const t of toasts) if (!live.has(t.key)) dismiss(t.key);
  }, [toasts, alerts, dismiss]);
  // A good notice (a proxy is ready) goes by itself; a warning or a failure waits for the user.
  useEffect(() => {
    const timers = toasts.filter((t) => STAY_MS[t.tone] !== undefined).map((t) => setTimeout(() => dismiss(t.key), STAY_MS[t.tone]));
    return () => timers.forEach(clearTimeout);
  }, [toasts, dismiss]);
  return notices;
}

/** A notice's ways on: its task, its alert (in the panel: the status bar's line has room for the task only), a close. */
function NoticeActions({ notice, onDone, compact }: { notice: Notice; onDone?: () => void; compact?: boolean }) {
  const dismiss = useTasks((s) => s.dismissToast);
  const select = useTasks((s) => s.select);
  const setView = useUi((s) => s.setView);
  return (
    <>
      {notice.taskId && (
        <button
          type="button"
          onClick={() => {
            select(notice.taskId);
            setView('tasks');
            dismiss(notice.key);
            onDone?.();
          }}
        >
          Show task
        </button>
      )}
      {notice.alertId !== undefined && !compact && (
        <button
          type="button"
          onClick={() => {
            setView('alerts');
            onDone?.();
          }}
        >
          Show alert
        </button>
      )}
      <button type="button" aria-label={`Dismiss: ${notice.title}`} title="Dismiss" onClick={() => dismiss(notice.key)}>
        {compact ? '✕' : 'Dismiss'}
      </button>
    </>
  );
}

function NoticePanel({ notices, onClose }: { notices: Notice[]; onClose: () => void }) {
  const dismiss = useTasks((s) => s.dismissToast);
  const acknowledge = useAlerts((s) => s.acknowledge);
  const ref = useRef<HTMLElement>(null);
  // Focus goes to the panel itself (its list is read next), not to a button Enter would press by mistake.
  useEffect(() => ref.current?.focus(), []);
  return (
    <section
      ref={ref}
      id={NOTICE_PANEL_ID}
      tabIndex={-1}
      className="notice-panel"
      aria-label="Notices"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <header className="notice-panel-head">
        <h2>Notices</h2>
        <button type="button" onClick={() => notices.forEach((n) => dismiss(n.key))}>
          Dismiss all
        </button>
        <button type="button" aria-label="Close the notices" onClick={onClose}>
          ✕
        </button>
      </header>
      <ul aria-label="All notifications" className="notice-list">
        {[...notices].reverse().map((n) => (
          <li key={n.key} className={`notice tone-${n.tone}`}>
            <div>
              <p className="notice-title">{n.title}</p>
              <p className="notice-body">{n.body}</p>
            </div>
            <div className="notice-actions">
              {n.alert && !n.alert.acknowledgedAt && (
                <button type="button" onClick={() => void acknowledge(n.alert!.id)}>
                  Acknowledge
                </button>
              )}
              <NoticeActions notice={n} onDone={onClose} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The status bar's notices: the latest on one line, and the count that opens them all. */
export function Toasts() {
  const notices = useNotices();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const latest = notices.at(-1);
  useEffect(() => {
    if (notices.length === 0) setOpen(false);
  }, [notices.length]);
  if (!latest) return null;
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <div className="notice-tray">
      {open && <NoticePanel notices={notices} onClose={close} />}
      <button
        ref={toggle}
        type="button"
        className={`notice-count tone-${notices.some((n) => n.tone === 'bad') ? 'bad' : latest.tone}`}
        aria-expanded={open}
        aria-controls={open ? NOTICE_PANEL_ID : undefined}
        title={open ? 'Hide the notices' : 'Show every notice'}
        onClick={() => setOpen((o) => !o)}
      >
        {notices.length} {notices.length === 1 ? 'notice' : 'notices'}
      </button>
      <ul className="notice-latest" aria-label="Notifications">
        <li className={`tone-${latest.tone}`}>
          {/* The live region is inside the item: a list holds only list items. The body is for assistive technology. */}
          <span role={latest.tone === 'bad' ? 'alert' : 'status'} className="notice-line" title={`${latest.title}. ${latest.body}`}>
            {latest.title}
            <span className="sr-only"> {latest.body}</span>
          </span>
          <span className="notice-actions">
            <NoticeActions notice={latest} compact />
          </span>
        </li>
      </ul>
    </div>
  );
}
