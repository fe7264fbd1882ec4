/**
 * Binds the contract to Electron IPC: the only module that imports ipcMain.
 * Every declared channel gets a handler that drops messages from any sender
 * other than our own window's main frame (a navigated or injected frame
 * must not reach main), then hands the input to the router. Events from the
 * bus are queued until the window has loaded, so none is lost at start.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { ipcEventChannel, ipcRequestChannel } from '../../shared/api';
import { channelNames } from '../../shared/contract';
import type { Envelope } from '../../shared/errors';
import type { Logger } from '../log/logger';
import type { EventBus } from './event-bus';
import type { Router } from './router';

const refused: Envelope<never> = {
  ok: false,
  error: {
    kind: 'permanent',
    message: 'This request did not come from the Egress Desk window.',
    hint: 'Nothing to do: the request was ignored.',
  },
};

export function isOwnWindow(event: IpcMainInvokeEvent, window: BrowserWindow, expectedOrigin: (url: string) => boolean): boolean {
  if (window.isDestroyed() || event.sender.id !== window.webContents.id) return false;
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && expectedOrigin(frame.url);
}

export function bindIpc(
  router: Router,
  bus: EventBus,
  window: BrowserWindow,
  trustedUrl: (url: string) => boolean,
  log: Logger,
): () => void {
  const closed = new AbortController();
  for (const name of channelNames) {
    ipcMain.handle(ipcRequestChannel(name), async (event, input: unknown) => {
      if (!isOwnWindow(event, window, trustedUrl)) {
        log.warn('ipc message from a foreign sender dropped', { channel: name, url: event.senderFrame?.url ?? '' });
        return refused;
      }
      return router.dispatch(name, input, { signal: closed.signal, transport: 'electron' });
    });
  }

  let ready = false;
  const queued: [string, unknown][] = [];
  window.webContents.once('did-finish-load', () => {
    ready = true;
    for (const [channel, payload] of queued.splice(0)) window.webContents.send(channel, payload);
  });
  const unsubscribe = bus.subscribe((name, payload) => {
    if (window.isDestroyed()) return;
    const channel = ipcEventChannel(name);
    if (ready) window.webContents.send(channel, payload);
    else queued.push([channel, payload]);
  });

  return () => {
    closed.abort();
    unsubscribe();
    for (const name of channelNames) ipcMain.removeHandler(ipcRequestChannel(name));
  };
}
