/**
 * Browser mode: serves the renderer to an ordinary browser and the same IPC
 * contract over a WebSocket, from plain Node, with no Electron. It listens
 * on 127.0.0.1 only. The socket speaks three messages:
 *   renderer -> host  {type:'request', id, channel, input}
 *   host -> renderer  {type:'response', id, result: Envelope}
 *   host -> renderer  {type:'event', name, payload}
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventBus } from '../ipc/event-bus';
import type { Router } from '../ipc/router';
import type { Logger } from '../log/logger';
import { judgeUpgrade, newRunKey } from './socket-auth';
import { serveStatic, securityHeaders } from './static-files';

export const SOCKET_PATH = '/ipc';
const MAX_MESSAGE_BYTES = 1 << 20;

export interface WebHostOptions {
  router: Router;
  bus: EventBus;
  /** Folder holding the built renderer (index.html and assets). */
  staticDir: string;
  logger: Logger;
  port?: number;
  key?: string;
}

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
    const m = JSON.parse(raw) as Partial<RequestMessage>;
    if (m && m.type === 'request' && typeof m.id === 'number' && Number.isSafeInteger(m.id)) return m as RequestMessage;
  } catch {
    // fall through: not JSON
  }
  return undefined;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { router, bus, logger } = options;
  const key = options.key ?? newRunKey();
  const sockets = new Set<WebSocket>();

  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, securityHeaders()).end();
      return;
    }
    void serveStatic(options.staticDir, req.url ?? '/', res);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  server.on('upgrade', (req, socket: Socket, head) => {
    const verdict = judgeUpgrade(req, { origin, key, path: SOCKET_PATH });
    if (!verdict.ok) {
      logger.warn('browser-mode socket refused', { reason: verdict.reason, origin: String(req.headers.origin ?? '') });
      socket.end(
        `HTTP/1.1 ${verdict.status} ${verdict.status === 404 ? 'Not Found' : verdict.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws));
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const closed = new AbortController();
    ws.on('close', () => {
      sockets.delete(ws);
      closed.abort();
    });
    ws.on('message', (data, isBinary) => {
      const request = isBinary ? undefined : parseRequest(data.toString());
      if (!request) {
        logger.warn('browser-mode socket sent a malformed message; closing it');
        ws.close(1003, 'malformed message');
        return;
      }
      void router.dispatch(request.channel, request.input, { signal: closed.signal, transport: 'browser' }).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'response', id: request.id, result }));
      });
    });
  });

  const unsubscribe = bus.subscribe((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
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
