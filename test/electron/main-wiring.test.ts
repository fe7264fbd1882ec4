/**
 * Loads the real Electron entry (main/index.ts) against a stand-in
 * `electron` module and checks what it wires: the window's security
 * options, the CSP, the navigation, window-open and permission handlers,
 * and an IPC handler for every contract channel and no other.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ipcEventChannel, ipcRequestChannel } from '../../shared/api';
import { channelNames } from '../../shared/contract';
import { createFakeElectron, FakeWebContents, type FakeElectron } from '../support/fake-electron';

const fake: FakeElectron = vi.hoisted(() => ({}) as FakeElectron);
vi.mock('electron', async () => {
  const { createFakeElectron: make } = await import('../support/fake-electron');
  Object.assign(fake, make());
  return fake.module;
});

async function flush() {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

describe('Electron main entry, under a stand-in electron module', () => {
  let appUrl: string;
  beforeAll(async () => {
    delete process.env.ELECTRON_RENDERER_URL;
    const entry = await import('../../main/index');
    await flush();
    appUrl = fake.windows[0]?.loaded?.target ?? '';
    expect(entry.isAppUrl(appUrl)).toBe(true);
    void createFakeElectron;
  });

  it('tells the inventory when the window is hidden or minimised, so polling slows down', () => {
    const window = fake.windows[0]!;
    for (const event of ['show', 'hide', 'minimize', 'restore']) expect(window.listenerCount(event)).toBeGreaterThan(0);
  });

  it('opens exactly one window, with the security checklist webPreferences', () => {
    expect(fake.windows).toHaveLength(1);
    const prefs = fake.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      devTools: false,
    });
    expect(String(prefs.preload)).toMatch(/preload[/\\]index\.cjs$/);
    expect(fake.app.sandboxEnabled).toBe(true);
  });

  it('loads the app from its own privileged app:// scheme, not file:// or a remote URL', () => {
    expect(fake.windows[0]!.loaded).toEqual({ kind: 'url', target: 'app://egress-desk/index.html' });
    expect(fake.protocol.privileged).toEqual([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
  });

  it('serves app:// only from the renderer folder', async () => {
    const handler = fake.protocol.handlers.get('app')!;
    expect((await handler({ url: 'app://egress-desk/../../../../etc/passwd' })).status).toBe(404);
    expect((await handler({ url: 'app://egress-desk/%2e%2e/%2e%2e/package.json' })).status).toBe(404);
    expect((await handler({ url: 'app://elsewhere/index.html' })).status).toBe(404);
  });

  it('sets a strict Content-Security-Policy header on every response', () => {
    let headers: Record<string, string[]> = {};
    fake.session.headersHandler!(
      { responseHeaders: { 'X-Other': ['1'] } },
      (r: { responseHeaders: Record<string, string[]> }) => (headers = r.responseHeaders),
    );
    const csp = headers['Content-Security-Policy']![0]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:\/\/(?!127\.0\.0\.1)/);
    expect(headers['X-Other']).toEqual(['1']);
  });

  it('denies navigation away from the app, and keeps it in the app', () => {
    const contents = fake.windows[0]!.webContents;
    const away = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit('will-navigate', away, 'https://evil.example/');
    expect(away.prevented).toBe(true);
    const redirect = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit('will-redirect', redirect, 'file:///etc/passwd');
    expect(redirect.prevented).toBe(true);
    const home = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit('will-navigate', home, appUrl);
    expect(home.prevented).toBe(false);
    const webview = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);
  });

  it('denies every new window; http(s) links go to the system browser, others nowhere', () => {
    const open = fake.windows[0]!.webContents.windowOpenHandler!;
    expect(open({ url: 'https://pve.example:8006/' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(fake.opened).toEqual(['https://pve.example:8006/']);
  });

  it('denies every permission request and check', () => {
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      fake.session.permissionRequestHandler!({}, permission, (g: boolean) => (granted = g));
      expect(granted).toBe(false);
      expect(fake.session.permissionCheckHandler!({}, permission)).toBe(false);
    }
    expect(fake.session.devicePermissionHandler!({})).toBe(false);
  });

  it('binds an IPC handler for every contract channel and no other', () => {
    expect([...fake.ipcMainHandlers.keys()].sort()).toEqual(channelNames.map(ipcRequestChannel).sort());
  });

  it("answers requests from its own window's main frame and drops everyone else's", async () => {
    const win = fake.windows[0]!;
    const handler = fake.ipcMainHandlers.get(ipcRequestChannel('app.version'))!;
    const own = { sender: win.webContents, senderFrame: { url: appUrl, parent: null } };
    expect(await handler(own, {})).toMatchObject({ ok: true, value: { version: '9.9.9-fake', mode: 'electron' } });

    const stranger = { sender: new FakeWebContents(), senderFrame: { url: appUrl, parent: null } };
    expect(await handler(stranger, {})).toMatchObject({ ok: false, error: { kind: 'permanent' } });
    const navigated = { sender: win.webContents, senderFrame: { url: 'https://evil.example/', parent: null } };
    expect(await handler(navigated, {})).toMatchObject({ ok: false });
    const subframe = { sender: win.webContents, senderFrame: { url: appUrl, parent: {} } };
    expect(await handler(subframe, {})).toMatchObject({ ok: false });
  });

  it('validates input on the Electron path too', async () => {
    const win = fake.windows[0]!;
    const handler = fake.ipcMainHandlers.get(ipcRequestChannel('app.echo'))!;
    const own = { sender: win.webContents, senderFrame: { url: appUrl, parent: null } };
    expect(await handler(own, { text: 5 })).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'text' } });
  });

  it('queues pushed events until the page has loaded, then delivers them in order', async () => {
    const win = fake.windows[0]!;
    const handler = fake.ipcMainHandlers.get(ipcRequestChannel('app.echo'))!;
    await handler({ sender: win.webContents, senderFrame: { url: appUrl, parent: null } }, { text: 'push' });
    await flush();
    expect(win.webContents.sent).toHaveLength(0);
    win.webContents.emit('did-finish-load');
    expect(win.webContents.sent.map(([c]) => c)).toContain(ipcEventChannel('app.status'));
  });
});
