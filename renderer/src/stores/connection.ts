/**
 * What the renderer knows about its link to main: the transport's state,
 * the app's identity, and the last pushed status. Loaded once, then fed by
 * events.
 *
 * When the link drops, `lostAt` says since when: every view then shows its
 * data as stale (the shell's banner) and actions are off
 * (`useActionsAvailable`). When it comes back, every store re-reads its
 * snapshot (`onReconnect`), and a change whose answer the drop took with it
 * is listed in `unknownOutcomes` ("unknown outcome: check Tasks").
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppInfo, AppStatus } from '../../../shared/contract';
import type { AppErrorValue } from '../../../shared/errors';
import type { LinkState, UnansweredRequest } from '../transport/ws-bridge';

export interface ConnectionState {
  link: LinkState;
  transport: DesktopApi['transport'] | undefined;
  info: AppInfo | undefined;
  lastStatus: AppStatus | undefined;
  error: AppErrorValue | undefined;
  /** When the link to main was lost (epoch ms); undefined while connected, and before the first try failed. */
  lostAt: number | undefined;
  /** How many times the link came back after a loss. */
  reconnects: number;
  /** Changes sent before a loss whose answer never arrived, oldest first. */
  unknownOutcomes: UnansweredRequest[];
  setLink(link: LinkState): void;
  addUnanswered(request: UnansweredRequest): void;
  dismissUnknownOutcomes(): void;
  /** Runs `listener` each time the link comes back after a loss; returns the unsubscribe. */
  onReconnect(listener: () => void): () => void;
  /** Loads the snapshot, then subscribes; returns the unsubscribe. */
  attach(api: DesktopApi): () => void;
}

const reconnectListeners = new Set<() => void>();

export const useConnection = create<ConnectionState>((set, get) => ({
  link: 'connecting',
  transport: undefined,
  info: undefined,
  lastStatus: undefined,
  error: undefined,
  lostAt: undefined,
  reconnects: 0,
  unknownOutcomes: [],
  setLink(link) {
    const { lostAt } = get();
    if (link === 'open') {
      set({ link, lostAt: undefined, ...(lostAt !== undefined ? { reconnects: get().reconnects + 1 } : {}) });
      if (lostAt !== undefined) for (const l of [...reconnectListeners]) l();
      return;
    }
    // `connecting` after a loss is still a loss: the time it began stays.
    set({ link, lostAt: lostAt ?? (link === 'closed' ? Date.now() : undefined) });
  },
  addUnanswered: (request) => set((s) => ({ unknownOutcomes: [...s.unknownOutcomes, request].slice(-20) })),
  dismissUnknownOutcomes: () => set({ unknownOutcomes: [] }),
  onReconnect(listener) {
    reconnectListeners.add(listener);
    return () => reconnectListeners.delete(listener);
  },
  attach(api) {
    set({ transport: api.transport });
    const readInfo = () =>
      void api.request['app.version']({}).then((r) => set(r.ok ? { info: r.value, error: undefined } : { error: r.error }));
    readInfo();
    const offReconnect = get().onReconnect(readInfo);
    const offStatus = api.on['app.status']((status) => set({ lastStatus: status }));
    return () => {
      offReconnect();
      offStatus();
    };
  },
}));

export interface ActionsAvailable {
  enabled: boolean;
  /** Why actions are off, in words; undefined while they are on. */
  reason: string | undefined;
}

export const actionsOffReason = 'Not connected to Egress Desk: actions are off until the connection is back.';

/** Whether the main actions (create, delete, test, clean up, run doctor, save) can be sent now, and why not. */
export function useActionsAvailable(): ActionsAvailable {
  const lost = useConnection((s) => s.lostAt !== undefined);
  return lost ? { enabled: false, reason: actionsOffReason } : { enabled: true, reason: undefined };
}

/** 12:03:14, in the 24-hour clock of the user's time zone (format/time.ts). */
export { formatClock as clockTime } from '../format/time';
