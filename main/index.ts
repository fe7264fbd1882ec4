/**
 * The Electron shell: thin on purpose. It applies the security rules,
 * opens the one window, and binds the contract to IPC; everything the app
 * does lives in the plain-Node composition root (app/compose.ts).
 */
import { app, BrowserWindow, protocol, session, shell } from 'electron';
import { join } from 'node:path';
import { composeApp } from './app/compose';
import { nodeRuntime } from './app/runtime-info';
import { loadElectronDocumentStore } from './electron/document-store';
import { createElectronNotifier } from './electron/notifier';
import { createSafeStorageVault } from './electron/safe-storage';
import { ElectronWindowVisibility } from './electron/window-visibility';
import { bindIpc } from './ipc/bind-electron';
import { createLogger } from './log/logger';
import { APP_INDEX_URL, APP_ORIGIN, appSchemePrivileges, serveAppProtocol } from './security/app-protocol';
import { lockNavigation } from './security/navigation';
import { denyAllPermissions } from './security/permissions';
import { enforceCsp } from './security/session-csp';
import { secureWindowOptions } from './security/window-options';

const isDev = !app.isPackaged && Boolean(process.env.ELECTRON_RENDERER_URL);
const logger = createLogger({ level: isDev ? 'debug' : 'info' });
const rendererRoot = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

/** The only pages our window may show: the dev server in development, our app:// origin otherwise. */
export function isAppUrl(url: string): boolean {
  const origin = isDev && process.env.ELECTRON_RENDERER_URL ? new URL(process.env.ELECTRON_RENDERER_URL).origin : APP_ORIGIN;
  return url.startsWith(origin + '/');
}

// Must happen before the app is ready: app:// behaves like a secure https origin.
protocol.registerSchemesAsPrivileged([appSchemePrivileges]);

// Checklist item 4: the sandbox for every renderer, not only the ones we configure.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('web-contents-created', (_event, contents) => lockNavigation(contents, isAppUrl, (url) => void shell.openExternal(url)));

  void app.whenReady().then(async () => {
    denyAllPermissions(session.defaultSession);
    enforceCsp(session.defaultSession);
    serveAppProtocol(protocol, rendererRoot);

    const openProfileStore = await loadElectronDocumentStore();
    const visibility = new ElectronWindowVisibility();
    let mainWindow: BrowserWindow | undefined;
    const composed = composeApp({
      mode: 'electron',
      version: app.getVersion(),
      runtime: nodeRuntime(),
      logger,
      dataDir: app.getPath('userData'),
      secretVault: createSafeStorageVault(),
      openProfileStore,
      monitoring: { inventory: { visibility } },
      tasks: { notifier: createElectronNotifier(() => mainWindow) },
    });
    const window = new BrowserWindow(secureWindowOptions(preloadPath, isDev));
    mainWindow = window;
    visibility.attach(window);
    const unbind = bindIpc(composed.router, composed.bus, window, isAppUrl, logger.child({ part: 'ipc' }));
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      mainWindow = undefined;
      unbind();
      void composed.dispose();
    });
    app.on('second-instance', () => {
      if (window.isMinimized()) window.restore();
      window.focus();
    });

    if (isDev && process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL);
    else void window.loadURL(APP_INDEX_URL);
  });

  app.on('window-all-closed', () => app.quit());
}
