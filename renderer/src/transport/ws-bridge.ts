/**
 * The browser-mode transport: the contract over a WebSocket to the loopback
 * host. The run key comes from the page URL's fragment (never sent to a
 * server in a Referer or a log). Requests that are in flight when the socket
 * drops fail with a transient error; the bridge reconnects with backoff.
 * The host says on connect how big a frame it takes (`hello`); a request
 * bigger than that is answered here with an invalid-input error and never
 * sent, and if one reaches the host anyway (sent before the hello), the
 * host's 1009 close fails the pending requests with that reason, not a hang.
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

/** The host closed the socket with 1009: a request was over its frame limit. */
const closedTooLarge: Envelope<never> = {
  ok: false,
  error: {
    kind: 'invalid-input',
    message: 'Egress Desk closed the connection because a request was too large to take.',
    hint: 'Send less at once (for an import, a smaller file), then try again.',
  },
};

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);

function tooLarge(bytes: number, limit: number): Envelope<never> {
  return {
    ok: false,
    error: {
      kind: 'invalid-input',
      message: `This request is too large to send: ${megabytes(bytes)} MB, and the limit is ${megabytes(limit)} MB.`,
      hint: 'Send less at once (for an import, a smaller file), then try again.',
    },
  };
}

/** The frame's UTF-8 size, exact whenever it could pass `limit`; encoding is skipped when three bytes per UTF-16 unit still fits. */
function frameBytes(frame: string, limit: number): number {
  return frame.length * 3 <= limit ? frame.length : new TextEncoder().encode(frame).byteLength;
}

const CLOSE_MESSAGE_TOO_BIG = 1009;

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
  /** The host's frame limit, from its hello; unknown until then. */
  let maxFrameBytes: number | undefined;

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
      let msg: { type?: string; id?: number; result?: Envelope<unknown>; name?: EventName; payload?: unknown; maxFrameBytes?: unknown };
      try {
        msg = JSON.parse(ev.data) as typeof msg;
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      if (msg.type === 'hello' && typeof msg.maxFrameBytes === 'number' && msg.maxFrameBytes > 0) {
        maxFrameBytes = msg.maxFrameBytes;
      } else if (msg.type === 'response' && msg.id !== undefined && msg.result) {
        pending.get(msg.id)?.resolve(msg.result);
        pending.delete(msg.id);
      } else if (msg.type === 'event' && msg.name) {
        for (const l of listeners.get(msg.name) ?? []) l(msg.payload);
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      onState('closed');
      const reason = ev.code === CLOSE_MESSAGE_TOO_BIG ? closedTooLarge : lostConnection;
      for (const p of pending.values()) p.resolve(reason);
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
      if (maxFrameBytes !== undefined) {
        const bytes = frameBytes(frame, maxFrameBytes);
        if (bytes > maxFrameBytes) return Promise.resolve(tooLarge(bytes, maxFrameBytes));
      }
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
