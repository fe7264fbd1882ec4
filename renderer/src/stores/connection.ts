/**
 * What the renderer knows about its link to main: the transport's state,
 * the app's identity, and the last pushed status. Loaded once, then fed by
 * events.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppInfo, AppStatus } from '../../../shared/contract';
import type { AppErrorValue } from '../../../shared/errors';
import type { LinkState } from '../transport/ws-bridge';

export interface ConnectionState {
  link: LinkState;
  transport: DesktopApi['transport'] | undefined;
  info: AppInfo | undefined;
  lastStatus: AppStatus | undefined;
  error: AppErrorValue | undefined;
  setLink(link: LinkState): void;
  /** Loads the snapshot, then subscribes; returns the unsubscribe. */
  attach(api: DesktopApi): () => void;
}

export const useConnection = create<ConnectionState>((set) => ({
  link: 'connecting',
  transport: undefined,
  info: undefined,
  lastStatus: undefined,
  error: undefined,
  setLink: (link) => set({ link }),
  attach(api) {
    set({ transport: api.transport });
    void api.request['app.version']({}).then((r) => set(r.ok ? { info: r.value, error: undefined } : { error: r.error }));
    return api.on['app.status']((status) => set({ lastStatus: status }));
  },
}));
