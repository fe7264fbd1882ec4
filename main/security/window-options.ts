/**
 * Electron security checklist items 2, 3, 4, 6 and 9: no Node.js in the
 * page, context isolation, process sandbox, web security on, no
 * experimental features or blink features, no `allowRunningInsecureContent`.
 * Devtools only in development (item: "do not ship devtools").
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export function secureWindowOptions(preloadPath: string, isDev: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Egress Desk',
    backgroundColor: '#111418',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: isDev,
      safeDialogs: true,
    },
  };
}
