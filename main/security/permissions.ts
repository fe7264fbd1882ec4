/**
 * Electron security checklist item 5: "Handle session permission requests
 * from remote content". The app needs no browser permission (camera,
 * notifications from the page, geolocation, ...), so every request and
 * every check is denied. Desktop notifications come from main instead.
 */
import type { Session } from 'electron';

export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
