/**
 * Picks the transport at start: the Electron preload's `egressDesk` object
 * when it exists, else the browser-mode socket on the page's own origin.
 * Nothing else in the renderer knows which one it has.
 */
import type { DesktopApi } from '../../../shared/api';
import { createWsBridge, keyFromLocation, type LinkState, type UnansweredRequest } from './ws-bridge';

declare global {
  interface Window {
    egressDesk?: DesktopApi;
  }
}

export function connectToMain(onState: (state: LinkState) => void, onUnanswered?: (request: UnansweredRequest) => void): DesktopApi {
  if (window.egressDesk) {
    onState('open');
    return window.egressDesk;
  }
  const key = encodeURIComponent(keyFromLocation(window.location));
  const url = `ws://${window.location.host}/ipc?key=${key}`;
  return createWsBridge(url, onState, { onUnanswered });
}

export type { LinkState, UnansweredRequest };
