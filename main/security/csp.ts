/**
 * Electron security checklist item 7, "Define a Content Security Policy".
 *
 * Only the app's own files: no remote origin, no inline script, no eval, no
 * plugins, no framing. `connect-src` allows the browser-mode socket on
 * loopback; the Electron window never opens one.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self' ws://127.0.0.1:*",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
  ].join('; ');
}
