/**
 * A stand-in for the `electron` module, for testing the shell's wiring under
 * plain Node where the Electron binary cannot run. It records what the
 * shell configures (window options, handlers, IPC bindings) so tests can
 * assert on it and call the handlers the way Electron would.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Handler = (...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  windowOpenHandler: Handler | undefined;
  sent: [string, unknown][] = [];
  setWindowOpenHandler(handler: Handler) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
  isDestroyed() {
    return false;
  }
}

export class FakeApp extends EventEmitter {
  isPackaged = false;
  sandboxEnabled = false;
  quitCalled = false;
  /** The code `app.exit` was called with, if it was. */
  exitCode: number | undefined;
  logsPathSet = false;
  enableSandbox() {
    this.sandboxEnabled = true;
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return Promise.resolve();
  }
  getVersion() {
    return '9.9.9-fake';
  }
  /** A fresh temporary folder per fake app, so the shell's profile file never lands in a real home. */
  private dataDir: string | undefined;
  getPath(name: string) {
    const base = (this.dataDir ??= mkdtempSync(join(tmpdir(), 'egress-desk-fake-electron-')));
    // Electron puts the logs folder inside userData on Linux and Windows once setAppLogsPath() is called.
    return name === 'logs' ? join(base, 'logs') : base;
  }
  setAppLogsPath() {
    this.logsPathSet = true;
  }
  quit() {
    this.quitCalled = true;
  }
  exit(code = 0) {
    this.exitCode = code;
  }
}

export function createFakeElectron() {
  const app = new FakeApp();

  const windows: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents();
    loaded: { kind: 'file' | 'url'; target: string } | undefined;
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadFile(target: string) {
      this.loaded = { kind: 'file', target };
      return Promise.resolve();
    }
    loadURL(target: string) {
      this.loaded = { kind: 'url', target };
      return Promise.resolve();
    }
    isDestroyed() {
      return false;
    }
    progress: number | undefined;
    isVisible() {
      return true;
    }
    setProgressBar(value: number) {
      this.progress = value;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    show() {}
  }

  const session = {
    permissionRequestHandler: undefined as Handler | undefined,
    permissionCheckHandler: undefined as Handler | undefined,
    devicePermissionHandler: undefined as Handler | undefined,
    headersHandler: undefined as Handler | undefined,
    setPermissionRequestHandler(h: Handler) {
      session.permissionRequestHandler = h;
    },
    setPermissionCheckHandler(h: Handler) {
      session.permissionCheckHandler = h;
    },
    setDevicePermissionHandler(h: Handler) {
      session.devicePermissionHandler = h;
    },
    webRequest: {
      onHeadersReceived(h: Handler) {
        session.headersHandler = h;
      },
    },
  };

  const ipcMainHandlers = new Map<string, Handler>();
  const ipcMain = {
    handle(channel: string, handler: Handler) {
      if (ipcMainHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      ipcMainHandlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      ipcMainHandlers.delete(channel);
    },
    // electron-store registers a listener for renderer-side stores; the app has none.
    on() {},
  };

  // No keyring: the shell must then offer "session only" or "store unprotected".
  const safeStorage = {
    isAsyncEncryptionAvailable: () => Promise.resolve(false),
    getSelectedStorageBackend: () => 'basic_text',
    encryptStringAsync: () => Promise.reject(new Error('encryption is not available')),
    decryptStringAsync: () => Promise.reject(new Error('encryption is not available')),
  };

  const protocol = {
    privileged: [] as unknown[],
    handlers: new Map<string, (request: { url: string }) => Promise<Response>>(),
    registerSchemesAsPrivileged(schemes: unknown[]) {
      protocol.privileged.push(...schemes);
    },
    handle(scheme: string, handler: (request: { url: string }) => Promise<Response>) {
      protocol.handlers.set(scheme, handler);
    },
  };

  const opened: string[] = [];
  const shell = { openExternal: (url: string) => (opened.push(url), Promise.resolve()) };

  // Renderer-side stand-ins for the preload.
  const exposed = new Map<string, unknown>();
  const contextBridge = { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) };
  const rendererListeners = new Map<string, Set<Handler>>();
  const invoked: [string, unknown][] = [];
  const ipcRenderer = {
    invoke: (channel: string, input: unknown) => (invoked.push([channel, input]), Promise.resolve({ ok: true, value: null })),
    on(channel: string, l: Handler) {
      const set = rendererListeners.get(channel) ?? new Set();
      set.add(l);
      rendererListeners.set(channel, set);
    },
    removeListener(channel: string, l: Handler) {
      rendererListeners.get(channel)?.delete(l);
    },
  };

  const notifications: { title: string; body: string }[] = [];
  class FakeNotification {
    static isSupported() {
      return true;
    }
    constructor(private readonly options: { title: string; body: string }) {}
    show() {
      notifications.push({ title: this.options.title, body: this.options.body });
    }
  }

  // On mains, never asleep: the shell only wires it to the scheduled checks.
  const powerMonitor = Object.assign(new EventEmitter(), { isOnBatteryPower: () => false });

  /** Every `dialog.showErrorBox` call, in order. */
  const errorBoxes: { title: string; content: string }[] = [];
  const dialog = {
    showErrorBox(title: string, content: string) {
      errorBoxes.push({ title, content });
    },
  };

  return {
    notifications,
    errorBoxes,
    module: {
      dialog,
      Notification: FakeNotification,
      app,
      BrowserWindow: FakeBrowserWindow,
      session: { defaultSession: session },
      ipcMain,
      protocol,
      shell,
      contextBridge,
      ipcRenderer,
      safeStorage,
      powerMonitor,
    },
    protocol,
    windows,
    session,
    ipcMainHandlers,
    opened,
    exposed,
    invoked,
    rendererListeners,
    app,
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
