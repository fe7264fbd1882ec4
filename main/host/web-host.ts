/**
 * Browser mode: serves the renderer to an ordinary browser and the same IPC
 * contract over a WebSocket, from plain Node, with no Electron. It listens
 * on 127.0.0.1 only. The socket speaks five messages:
 *   host -> renderer  {type:'hello', maxFrameBytes}       once, on connect
 *   renderer -> host  {type:'request', id, channel, input}
 *   host -> renderer  {type:'response', id, result: Envelope}
 *   host -> renderer  {type:'event', name, payload}
 *   host -> renderer  {type:'beat'}                      every `beatMs`, so a page can tell a hung main
 *                                                        from a slow request (no beat for a while: the link is lost)
 *
 * Nothing a client sends can end the process: every socket, server and
 * handler has its error path (a bad frame closes that one socket with the
 * protocol's code and is logged), no promise is left to reject, a socket
 * works on at most `maxInFlight` requests at a time (each one over that is
 * answered at once, by its id, with a transient error), and a socket that
 * stops reading is cut off once its unsent output passes `maxBufferedBytes`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Envelope } from '../../shared/errors';
import { internalErrorValue } from '../errors/app-error';
import type { EventBus } from '../ipc/event-bus';
import type { Router } from '../ipc/router';
import type { Logger } from '../log/logger';
import { MAX_FRAME_BYTES } from './frame-limit';
import { allowedHosts, hostAllowed, judgeUpgrade, newRunKey } from './socket-auth';
import { refuse, serveStatic } from './static-files';

export { MAX_FRAME_BYTES, largestTextInput } from './frame-limit';

export const SOCKET_PATH = '/ipc';
/** Requests one socket may have in progress at once; a renderer rarely has more than a handful. */
export const MAX_IN_FLIGHT = 32;
/** Unsent output one socket may hold before it counts as a reader too slow to keep. */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export interface WebHostOptions {
  router: Router;
  bus: EventBus;
  /** Folder holding the built renderer (index.html and assets). */
  staticDir: string;
  logger: Logger;
  port?: number;
  key?: string;
  /** Requests per socket in progress at once (default MAX_IN_FLIGHT). */
  maxInFlight?: number;
  /** Bytes of requests per socket in progress at once, beyond the first (default MAX_FRAME_BYTES). */
  maxInFlightBytes?: number;
  /** Unsent bytes per socket before it is cut off as too slow (default MAX_BUFFERED_BYTES). */
  maxBufferedBytes?: number;
  /** How often each socket gets a heartbeat frame (default BEAT_MS). */
  beatMs?: number;
}

/** A beat a second: the page declares main lost after a few missed ones (renderer/src/transport/ws-bridge.ts). */
export const BEAT_MS = 1000;
const BEAT_FRAME = JSON.stringify({ type: 'beat' });

export interface WebHost {
  /** The URL to open; the run key travels in the fragment, which browsers never send to a server. */
  url: string;
  origin: string;
  port: number;
  key: string;
  close(): Promise<void>;
}

interface RequestMessage {
  type: 'request';
  id: number;
  channel: unknown;
  input: unknown;
}

function parseRequest(raw: string): RequestMessage | undefined {
  try {
    const m = JSON.parse(raw) as Partial<RequestMessage> | null;
    if (m && m.type === 'request' && typeof m.id === 'number' && Number.isSafeInteger(m.id)) return m as RequestMessage;
  } catch {
    // fall through: not JSON
  }
  return undefined;
}

const tooManyInFlight: Envelope<never> = {
  ok: false,
  error: {
    kind: 'transient',
    message: 'Too many requests in flight on this connection; this one was not started.',
    hint: 'Wait for the earlier requests to finish, then try again.',
  },
};

/** ws's error codes for what a peer did wrong, and the close code ws sends for each (RFC 6455 section 7.4.1). */
const closeCodeOf = (code: string | undefined): number =>
  code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 1009 : code === 'WS_ERR_INVALID_UTF8' ? 1007 : 1002;

const rawSize = (data: RawData): number =>
  Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;

const reasonPhrase: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { router, bus, logger } = options;
  const key = options.key ?? newRunKey();
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  const maxInFlightBytes = options.maxInFlightBytes ?? MAX_FRAME_BYTES;
  const maxBufferedBytes = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const beatMs = options.beatMs ?? BEAT_MS;
  const sockets = new Set<WebSocket>();
  // Set once listening; no request arrives before.
  let hosts: ReadonlySet<string> = new Set();

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    res.on('error', () => undefined);
    if (!hostAllowed(req, hosts)) {
      refuse(res, 421);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(res, 405, { Allow: 'GET, HEAD' });
      return;
    }
    serveStatic(options.staticDir, req.url ?? '/', res).catch((e: unknown) => {
      // serveStatic resolves in every case; this is the belt to its braces.
      logger.error('browser-mode static file failed', { error: e });
      refuse(res, 500);
    });
  };
  const server: Server = createServer(onRequest);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  wss.on('error', (e) => logger.error('browser-mode socket server error', { error: e }));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (e) => logger.error('browser-mode server error', { error: e }));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  hosts = allowedHosts(port);

  // CONNECT is not for us; without a listener Node drops the connection without a word.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node takes its own error listener off an upgraded socket: without this one a reset would end the process.
    socket.on('error', () => undefined);
    try {
      const verdict = judgeUpgrade(req, { origin, key, path: SOCKET_PATH, hosts });
      if (!verdict.ok) {
        logger.warn('browser-mode socket refused', {
          reason: verdict.reason,
          origin: String(req.headers.origin ?? '').slice(0, 200),
          host: String(req.headers.host ?? '').slice(0, 200),
        });
        socket.end(`HTTP/1.1 ${verdict.status} ${reasonPhrase[verdict.status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws));
    } catch (e) {
      logger.error('browser-mode upgrade failed', { error: e });
      socket.destroy();
    }
  });

  /** Sends one frame, or cuts the socket off if it has stopped reading. Never throws. */
  const send = (ws: WebSocket, text: string) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > maxBufferedBytes) {
      logger.warn('browser-mode socket reads too slowly; closing it', { bufferedBytes: ws.bufferedAmount, limit: maxBufferedBytes });
      ws.terminate();
      return;
    }
    try {
      ws.send(text);
    } catch (e) {
      logger.warn('browser-mode socket send failed', { error: e });
    }
  };

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const closed = new AbortController();
    let inFlight = 0;
    let inFlightBytes = 0;
    ws.on('error', (e: Error & { code?: string }) => {
      // ws has already closed the socket with the code below; the process carries on.
      logger.warn('browser-mode socket error; closing it', { error: e.message, code: e.code, closeCode: closeCodeOf(e.code) });
    });
    // The beat comes from this process's event loop: if main hangs, the beats stop and the page says so.
    const beat = setInterval(() => send(ws, BEAT_FRAME), beatMs);
    beat.unref();
    ws.on('close', () => {
      clearInterval(beat);
      sockets.delete(ws);
      closed.abort();
    });

    const answer = async (request: RequestMessage, size: number) => {
      let result: Envelope<unknown>;
      try {
        result = await router.dispatch(request.channel, request.input, { signal: closed.signal, transport: 'browser' });
      } catch (e) {
        // The router never throws; should it ever, the renderer still gets an answer.
        logger.error('browser-mode request failed outside the router', { error: e });
        result = { ok: false, error: internalErrorValue };
      } finally {
        inFlight--;
        inFlightBytes -= size;
      }
      try {
        send(ws, JSON.stringify({ type: 'response', id: request.id, result }));
      } catch (e) {
        logger.error('browser-mode response could not be encoded', { error: e });
      }
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const request = isBinary ? undefined : parseRequest(data.toString());
      if (!request) {
        logger.warn('browser-mode socket sent a malformed message; closing it');
        ws.close(1003, 'malformed message');
        return;
      }
      const size = rawSize(data);
      // The first request always runs, whatever its size (it fits the frame limit); the rest wait their turn.
      if (inFlight > 0 && (inFlight >= maxInFlight || inFlightBytes + size > maxInFlightBytes)) {
        send(ws, JSON.stringify({ type: 'response', id: request.id, result: tooManyInFlight }));
        return;
      }
      inFlight++;
      inFlightBytes += size;
      void answer(request, size);
    });

    send(ws, JSON.stringify({ type: 'hello', maxFrameBytes: MAX_FRAME_BYTES }));
  });

  const unsubscribe = bus.subscribe((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload });
    for (const ws of sockets) send(ws, frame);
  });

  logger.info('browser mode listening', { origin });
  return {
    url: `${origin}/#key=${key}`,
    origin,
    port,
    key,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      const closedServer = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closedServer;
    },
  };
}
