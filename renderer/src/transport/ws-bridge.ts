/**
 * The browser-mode transport: the contract over a WebSocket to the loopback
 * host. The run key comes from the page URL's fragment (never sent to a
 * server in a Referer or a log). The bridge reconnects with backoff (at
 * most MAX_RETRY_MS apart) for as long as the page is open; the host reuses
 * its port and run key across restarts (main/host/run-state.ts), so the
 * page finds a restarted main by itself.
 *
 * No request is silently lost. Each carries an id. One made while there is
 * no link waits for it at most NOT_SENT_TIMEOUT_MS, then fails as "not
 * sent". One that went out and whose answer the dropped link took with it
 * fails at once: a read as lost (asking again is safe), a change as "may
 * not have completed", and the change is also reported through
 * `onUnanswered`, so the window can say "unknown outcome: check Tasks"
 * once it is back.
 *
 * A main that hangs keeps its socket open, so silence is watched too: the
 * host sends a beat every second, and a link that has heard nothing for
 * SILENCE_MS is treated as lost, exactly like a closed one. A long request
 * (a doctor run) is fine as long as main's event loop still beats.
 *
 * The host says on connect how big a frame it takes (`hello`); a request
 * bigger than that is answered here with an invalid-input error and never
 * sent, and if one reaches the host anyway (sent before the hello), the
 * host's 1009 close fails the pending requests with that reason, not a hang.
 */
import { buildDesktopApi, type DesktopApi, type TransportPort } from '../../../shared/api';
import type { ChannelName, EventName } from '../../../shared/contract';
import type { Envelope } from '../../../shared/errors';
import { isReadChannel } from './read-channels';

export type LinkState = 'connecting' | 'open' | 'closed';

/** A request that changes something, sent to main, whose answer never came because the link dropped. */
export interface UnansweredRequest {
  id: number;
  channel: ChannelName;
  /** When it was sent (epoch ms). */
  sentAt: number;
}

export interface WsBridgeOptions {
  /** A write whose answer was lost with the link: its outcome is unknown until the window checks (Tasks). */
  onUnanswered?: (request: UnansweredRequest) => void;
  /** How long a request may wait for the link before it fails as not sent (default NOT_SENT_TIMEOUT_MS). */
  notSentTimeoutMs?: number;
  /** Longest wait between reconnect attempts (default MAX_RETRY_MS). */
  maxRetryMs?: number;
  /** Silence after which an open link counts as lost (default SILENCE_MS). */
  silenceMs?: number;
  /** The WebSocket class (tests pass one that sets the page's Origin). */
  WebSocketImpl?: typeof WebSocket;
}

/** A request waits at most this long for a link to main before failing as not sent. */
export const NOT_SENT_TIMEOUT_MS = 4000;
/** Reconnect attempts back off to this at most, so a restarted main is found within a couple of seconds. */
export const MAX_RETRY_MS = 2000;
/** No frame from main for this long (it beats every second): main is hung, and what was sent fails within 5 s. */
export const SILENCE_MS = 4000;

interface Pending {
  channel: ChannelName;
  resolve: (value: Envelope<unknown>) => void;
  /** Set once the frame went out on an open socket. */
  sentAt?: number;
  /** The not-sent timer while the frame waits in the queue. */
  timer?: ReturnType<typeof setTimeout>;
  frame: string;
}

/** The request never left this window: main did nothing with it. */
export const notSent: Envelope<never> = {
  ok: false,
  error: {
    kind: 'transient',
    message: "Egress Desk's main process did not answer: the request was not sent.",
    hint: 'Nothing was changed. Wait for the connection to come back, then try again.',
  },
};

/** The request reached main but the link dropped before its answer: a write may or may not have happened. */
export const mayNotHaveCompleted: Envelope<never> = {
  ok: false,
  error: {
    kind: 'transient',
    message: "Egress Desk's main process did not answer: the request may not have completed.",
    hint: 'When the connection is back, check Tasks to see whether it ran before trying again.',
  },
};

/** A read lost with the link: nothing changed, asking again is safe. */
const readLost: Envelope<never> = {
  ok: false,
  error: {
    kind: 'transient',
    message: "Egress Desk's main process did not answer: the connection was lost before it replied.",
    hint: 'Nothing was changed. Wait for the connection to come back, then try again.',
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

export function createWsBridge(socketUrl: string, onState: (state: LinkState) => void, options: WsBridgeOptions = {}): DesktopApi {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const notSentTimeoutMs = options.notSentTimeoutMs ?? NOT_SENT_TIMEOUT_MS;
  const maxRetryMs = options.maxRetryMs ?? MAX_RETRY_MS;
  const silenceMs = options.silenceMs ?? SILENCE_MS;
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let retryMs = 250;
  /** The host's frame limit, from its hello; unknown until then. */
  let maxFrameBytes: number | undefined;

  const settle = (id: number, answer: Envelope<unknown>) => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (p.timer !== undefined) clearTimeout(p.timer);
    p.resolve(answer);
  };

  /** Sends a queued request on the open socket; it now waits for its answer, with no timer (a create may take long). */
  const transmit = (ws: WebSocket, id: number, p: Pending) => {
    if (p.timer !== undefined) clearTimeout(p.timer);
    p.timer = undefined;
    p.sentAt = Date.now();
    try {
      ws.send(p.frame);
    } catch {
      settle(id, notSent);
    }
  };

  const connect = () => {
    onState('connecting');
    let ws: WebSocket;
    try {
      ws = new Impl(socketUrl);
    } catch {
      setTimeout(connect, retryMs);
      return;
    }
    socket = ws;
    let heardAt = Date.now();
    let watchdog: ReturnType<typeof setInterval> | undefined;
    ws.onopen = () => {
      heardAt = Date.now();
      watchdog = setInterval(() => {
        if (Date.now() - heardAt > silenceMs) {
          // Hung, not closed: the close handshake would never finish, so the link is dropped here and now.
          lose(ws, 0);
          try {
            ws.close();
          } catch {
            // already closing
          }
        }
      }, Math.min(1000, silenceMs / 2));
      retryMs = 250;
      onState('open');
      for (const [id, p] of [...pending]) if (p.sentAt === undefined) transmit(ws, id, p);
    };
    ws.onmessage = (ev: MessageEvent<string>) => {
      heardAt = Date.now();
      let msg: { type?: string; id?: number; result?: Envelope<unknown>; name?: EventName; payload?: unknown; maxFrameBytes?: unknown };
      try {
        msg = JSON.parse(String(ev.data)) as typeof msg;
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      if (msg.type === 'hello' && typeof msg.maxFrameBytes === 'number' && msg.maxFrameBytes > 0) {
        maxFrameBytes = msg.maxFrameBytes;
      } else if (msg.type === 'response' && msg.id !== undefined && msg.result) {
        settle(msg.id, msg.result);
      } else if (msg.type === 'event' && msg.name) {
        for (const l of listeners.get(msg.name) ?? []) l(msg.payload);
      }
    };
    const lose = (lost: WebSocket, code: number) => {
      if (watchdog !== undefined) clearInterval(watchdog);
      watchdog = undefined;
      if (socket !== lost) return;
      socket = undefined;
      onState('closed');
      // Every request that went out on this socket ends now; those still queued keep their not-sent timer.
      for (const [id, p] of [...pending]) {
        if (p.sentAt === undefined) continue;
        if (code === CLOSE_MESSAGE_TOO_BIG) settle(id, closedTooLarge);
        else if (isReadChannel(p.channel)) settle(id, readLost);
        else {
          options.onUnanswered?.({ id, channel: p.channel, sentAt: p.sentAt });
          settle(id, mayNotHaveCompleted);
        }
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, maxRetryMs);
    };
    ws.onclose = (ev: CloseEvent) => lose(ws, ev.code);
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
        const p: Pending = { channel, resolve, frame };
        pending.set(id, p);
        if (socket?.readyState === Impl.OPEN) transmit(socket, id, p);
        // No link: it waits for one, but never longer than the timeout, and then it was never sent.
        else p.timer = setTimeout(() => settle(id, notSent), notSentTimeoutMs);
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
