/**
 * The browser-mode transport: the contract over a WebSocket to the loopback
 * host. The run key comes from the page URL's fragment (never sent to a
 * server in a Referer or a log). Requests that are in flight when the socket
 * drops fail with a transient error; the bridge reconnects with backoff.
 */
import { buildDesktopApi, type DesktopApi, type TransportPort } from '../../../shared/api';
import type { EventName } from '../../../shared/contract';
import type { Envelope } from '../../../shared/errors';

export type LinkState = 'connecting' | 'open' | 'closed';

interface Pending {
  resolve: (value: Envelope<unknown>) => void;
}

const lostConnection: Envelope<never> = {
  ok: false,
  error: {
    kind: 'transient',
    message: 'The connection to Egress Desk was lost before it answered.',
    hint: 'Wait for it to reconnect, then try again.',
  },
};

export function keyFromLocation(loc: Location): string {
  return new URLSearchParams(loc.hash.replace(/^#/, '')).get('key') ?? '';
}

export function createWsBridge(socketUrl: string, onState: (state: LinkState) => void): DesktopApi {
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let retryMs = 250;

  const connect = () => {
    onState('connecting');
    const ws = new WebSocket(socketUrl);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onState('open');
      for (const frame of queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (ev: MessageEvent<string>) => {
      const msg = JSON.parse(ev.data) as { type: string; id?: number; result?: Envelope<unknown>; name?: EventName; payload?: unknown };
      if (msg.type === 'response' && msg.id !== undefined && msg.result) {
        pending.get(msg.id)?.resolve(msg.result);
        pending.delete(msg.id);
      } else if (msg.type === 'event' && msg.name) {
        for (const l of listeners.get(msg.name) ?? []) l(msg.payload);
      }
    };
    ws.onclose = () => {
      onState('closed');
      for (const p of pending.values()) p.resolve(lostConnection);
      pending.clear();
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  connect();

  const port: TransportPort = {
    send(channel, input) {
      const id = nextId++;
      const frame = JSON.stringify({ type: 'request', id, channel, input });
      return new Promise((resolve) => {
        pending.set(id, { resolve });
        if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
        else queue.push(frame);
      });
    },
    listen(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  };
  return buildDesktopApi('browser', port);
}
