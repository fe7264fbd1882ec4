/**
 * Picks the transport at start: the Electron preload's `egressDesk` object
 * when it exists, else the browser-mode socket on the page's own origin.
 * Nothing else in the renderer knows which one it has.
 */
import type { DesktopApi } from '../../../shared/api';
import { createWsBridge, keyFromLocation, type LinkState } from './ws-bridge';

declare global {
  interface Window {
    egressDesk?: DesktopApi;
  }
}

export function connectToMain(onState: (state: LinkState) => void): DesktopApi {
  if (window.egressDesk) {
    onState('open');
    return window.egressDesk;
  }
  const key = encodeURIComponent(keyFromLocation(window.location));
  const url = `ws://${window.location.host}/ipc?key=${key}`;
  return createWsBridge(url, onState);
}

export type { LinkState };
