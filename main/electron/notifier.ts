/** The Notifier port in the desktop shell: a system notification and the window's taskbar progress. */
import { Notification, type BrowserWindow } from 'electron';
import type { Notifier } from '../ports/notifier';

export function createElectronNotifier(window: () => BrowserWindow | undefined): Notifier {
  return {
    notify(title, body, about) {
      // A failed create asks for attention, where the desktop knows urgency (Linux).
      if (Notification.isSupported())
        new Notification({ title, body, silent: false, urgency: about?.tone === 'bad' ? 'critical' : 'normal' }).show();
    },
    progress(fraction) {
      const w = window();
      // -1 removes the bar; Electron wants 0..1 otherwise.
      if (w && !w.isDestroyed()) w.setProgressBar(fraction === null ? -1 : Math.min(1, Math.max(0, fraction)));
    },
  };
}
