/**
 * The Electron shell: thin on purpose. It applies the security rules,
 * opens the one window, and binds the contract to IPC; everything the app
 * does lives in the plain-Node composition root (app/compose.ts).
 */
import { app, BrowserWindow, dialog, powerMonitor, protocol, session, shell } from 'electron';
import { renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { composeApp } from './app/compose';
import { nodeRuntime } from './app/runtime-info';
import { loadElectronDocumentStore } from './electron/document-store';
import { createElectronNotifier } from './electron/notifier';
import { createElectronFileSaver, createElectronFolderSaver } from './electron/save-dialog';
import { electronPowerState } from './electron/power-state';
import { createSafeStorageVault } from './electron/safe-storage';
import { ElectronWindowVisibility } from './electron/window-visibility';
import { bindIpc } from './ipc/bind-electron';
import { ensurePrivateDir, openPrivateFile } from './files/data-dir';
import { createLogger, type LogSink } from './log/logger';
import { APP_INDEX_URL, APP_ORIGIN, appSchemePrivileges, serveAppProtocol } from './security/app-protocol';
import { lockNavigation } from './security/navigation';
import { denyAllPermissions } from './security/permissions';
import { enforceCsp } from './security/session-csp';
import { secureWindowOptions } from './security/window-options';

const isDev = !app.isPackaged && Boolean(process.env.ELECTRON_RENDERER_URL);

/** Rolled over to main.old.log at start once it passes this size. */
const MAX_LOG_BYTES = 10 * 1024 * 1024;

/**
 * The log file: `main.log` in Electron's logs folder (inside the user data
 * folder on Linux and Windows, ~/Library/Logs on macOS), private to the user.
 * Each line is written synchronously, so a line logged just before a fatal
 * error is on disk when the error box names the file. Without a file (the
 * folder cannot be made), logging goes on to stderr alone.
 */
function openLogFile(): { path?: string; sink?: LogSink; problem?: string } {
  try {
    app.setAppLogsPath();
    const dir = app.getPath('logs');
    // 0700 and 0600 whatever the umask, and whatever mode an older version left them with (data-dir.ts).
    ensurePrivateDir(dir);
    const path = join(dir, 'main.log');
    try {
      if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, join(dir, 'main.old.log'));
    } catch {
      // no log yet
    }
    const fd = openPrivateFile(path, 'a');
    return {
      path,
      sink: (line) => {
        try {
          writeSync(fd, line + '\n');
        } catch {
          // a full disk must not take the app down with it
        }
      },
    };
  } catch (e) {
    return { problem: e instanceof Error ? e.message : String(e) };
  }
}

const logFile = openLogFile();
const logger = createLogger({
  level: isDev ? 'debug' : 'info',
  sinks: [(line) => process.stderr.write(line + '\n'), ...(logFile.sink ? [logFile.sink] : [])],
});
if (!logFile.path) logger.warn('no log file; logging to stderr only', { error: logFile.problem });

/**
 * A startup error is never a silent quit: it is logged, an error box says
 * what went wrong and where the log is, and the app exits non-zero.
 */
function failStartup(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  logger.error('Egress Desk could not start', { error: message, stack: error instanceof Error ? error.stack : undefined });
  const where = logFile.path
    ? `The log is at ${logFile.path}`
    : `No log file could be written (${logFile.problem}); the log went to the terminal.`;
  try {
    dialog.showErrorBox('Egress Desk could not start', `${message}\n\n${where}`);
  } catch (e) {
    // Before the app is ready on some platforms: stderr is all there is.
    process.stderr.write(`Egress Desk could not start: ${message}\n${where}\n(${e instanceof Error ? e.message : String(e)})\n`);
  }
  app.exit(1);
}

const rendererRoot = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

/** The only pages our window may show: the dev server in development, our app:// origin otherwise. */
export function isAppUrl(url: string): boolean {
  const origin = isDev && process.env.ELECTRON_RENDERER_URL ? new URL(process.env.ELECTRON_RENDERER_URL).origin : APP_ORIGIN;
  return url.startsWith(origin + '/');
}

function start(): void {
  // Must happen before the app is ready: app:// behaves like a secure https origin.
  protocol.registerSchemesAsPrivileged([appSchemePrivileges]);

  // Checklist item 4: the sandbox for every renderer, not only the ones we configure.
  app.enableSandbox();

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('web-contents-created', (_event, contents) => lockNavigation(contents, isAppUrl, (url) => void shell.openExternal(url)));

  app
    .whenReady()
    .then(async () => {
      denyAllPermissions(session.defaultSession);
      enforceCsp(session.defaultSession);
      serveAppProtocol(protocol, rendererRoot);

      const openProfileStore = await loadElectronDocumentStore();
      const visibility = new ElectronWindowVisibility();
      let mainWindow: BrowserWindow | undefined;
      // Sleep and battery pause the scheduled checks (powerMonitor is usable once the app is ready).
      const powerState = electronPowerState(powerMonitor);
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
        fileSaver: createElectronFileSaver(() => mainWindow),
        folderSaver: createElectronFolderSaver(() => mainWindow),
        powerState,
      });
      const window = new BrowserWindow(secureWindowOptions(preloadPath, isDev));
      mainWindow = window;
      visibility.attach(window);
      const unbind = bindIpc(composed.router, composed.bus, window, isAppUrl, logger.child({ part: 'ipc' }));
      window.once('ready-to-show', () => window.show());
      window.on('closed', () => {
        mainWindow = undefined;
        unbind();
        powerState.close();
        void composed.dispose();
      });
      app.on('second-instance', () => {
        if (window.isMinimized()) window.restore();
        window.focus();
      });

      const url = isDev && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : APP_INDEX_URL;
      window.loadURL(url).catch((e: unknown) => logger.error('the window could not load the app', { url, error: e }));
    })
    .catch(failStartup);

  app.on('window-all-closed', () => app.quit());
}

try {
  start();
} catch (e) {
  failStartup(e);
}
