/** The Notifier port in the desktop shell: a system notification and the window's taskbar progress. */
import { Notification, type BrowserWindow } from 'electron';
import type { Notifier } from '../services/tasks/notifier';

export function createElectronNotifier(window: () => BrowserWindow | undefined): Notifier {
  return {
    notify(title, body) {
      if (Notification.isSupported()) new Notification({ title, body, silent: false }).show();
    },
    progress(fraction) {
      const w = window();
      // -1 removes the bar; Electron wants 0..1 otherwise.
      if (w && !w.isDestroyed()) w.setProgressBar(fraction === null ? -1 : Math.min(1, Math.max(0, fraction)));
    },
  };
}
