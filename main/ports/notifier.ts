/**
 * The desktop's voice when work ends: a notification and the taskbar
 * progress. The Electron shell implements it (main/electron/notifier.ts);
 * browser mode publishes each notification as a `tasks.notice` event, which
 * the window shows as a toast (eventNotifier); Node uses the silent or the
 * recording one. A port of its own (main/ports): the task manager and the
 * alerts' delivery both speak through it, and neither area owns it.
 */
export interface NoticeAbout {
  taskId: string;
  /** ok: a proxy is usable; warn: it runs but has no address; bad: a create failed. */
  tone: 'ok' | 'warn' | 'bad';
  /** The alert a notice announces: the window drops the notice once the alert is acknowledged or resolved. */
  alertId?: number;
}

export interface Notifier {
  notify(title: string, body: string, about?: NoticeAbout): void;
  /** 0..1 while work runs; null clears the bar. */
  progress(fraction: number | null): void;
}

export const silentNotifier: Notifier = { notify: () => undefined, progress: () => undefined };

export interface Notice extends NoticeAbout {
  title: string;
  body: string;
}

/** Browser mode: every notification becomes a `tasks.notice` event for the window's toasts; no taskbar to show progress on. */
export function eventNotifier(publish: (notice: Notice) => void): Notifier {
  return {
    notify: (title, body, about) =>
      publish({
        taskId: about?.taskId ?? '',
        tone: about?.tone ?? 'ok',
        title,
        body,
        ...(about?.alertId !== undefined ? { alertId: about.alertId } : {}),
      }),
    progress: () => undefined,
  };
}

export function createRecordingNotifier(): Notifier & {
  notes: ({ title: string; body: string } & Partial<NoticeAbout>)[];
  fractions: (number | null)[];
} {
  const notes: ({ title: string; body: string } & Partial<NoticeAbout>)[] = [];
  const fractions: (number | null)[] = [];
  return {
    notes,
    fractions,
    notify: (title, body, about) => notes.push({ title, body, ...about }),
    progress: (fraction) => fractions.push(fraction),
  };
}
