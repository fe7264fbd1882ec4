/**
 * The preload: the only code that touches ipcRenderer. It exposes exactly
 * one object, `window.egressDesk`, built from the contract: a function per
 * request channel and a subscribe per event. No generic invoke, no Node, no
 * other Electron API crosses into the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildDesktopApi, ipcEventChannel, ipcRequestChannel } from '../../shared/api';

const api = buildDesktopApi('electron', {
  send: (channel, input) => ipcRenderer.invoke(ipcRequestChannel(channel), input),
  listen(event, listener) {
    const channel = ipcEventChannel(event);
    const forward = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
});

contextBridge.exposeInMainWorld('egressDesk', api);
