/**
 * Raw clients for the browser-mode host's tests: HTTP requests written byte
 * for byte over a net.Socket (so nothing normalises the path), a WebSocket
 * upgrade done by hand, hand-built WebSocket frames (any opcode, masked or
 * not, any declared length), and a well-behaved `ws` client for the
 * "a second client is still served" checks.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';

export interface RawResponse {
  /** The status code, 0 when the host sent nothing parseable before closing. */
  status: number;
  head: string;
  body: Buffer;
}

/** Writes `request` as is and collects whatever comes back until the host closes or `timeoutMs` passes. */
export function rawHttp(port: number, request: Buffer | string, timeoutMs = 3000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = (split < 0 ? all : all.subarray(0, split)).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: m ? Number(m[1]) : 0, head, body: split < 0 ? Buffer.alloc(0) : all.subarray(split + 4) });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', () => socket.write(request));
  });
}

/** A GET (or any method) with `target` written verbatim as the request-target. */
export function rawRequest(port: number, target: Buffer | string, opts: { method?: string; host?: string | null } = {}) {
  const host = opts.host === undefined ? `127.0.0.1:${port}` : opts.host;
  const head = Buffer.concat([
    Buffer.from(`${opts.method ?? 'GET'} `, 'latin1'),
    Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`, 'latin1'),
  ]);
  return rawHttp(port, head);
}

export interface FrameSpec {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  rsv?: number;
  /** Clients must mask; false sends an unmasked frame (a protocol error from a client). */
  masked?: boolean;
  /** The length written in the header; defaults to the payload's. Lets a test declare a huge frame and send none of it. */
  declaredLength?: number | bigint;
}

/** One WebSocket frame, byte for byte, per RFC 6455 section 5.2. */
export function frame(spec: FrameSpec): Buffer {
  const payload = spec.payload ?? Buffer.alloc(0);
  const length = spec.declaredLength ?? payload.length;
  const masked = spec.masked ?? true;
  const first = ((spec.fin ?? true) ? 0x80 : 0) | (((spec.rsv ?? 0) & 7) << 4) | (spec.opcode & 0x0f);
  let header: Buffer;
  if (typeof length === 'number' && length < 126) {
    header = Buffer.from([first, (masked ? 0x80 : 0) | length]);
  } else if (typeof length === 'number' && length < 65536) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = (masked ? 0x80 : 0) | 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = (masked ? 0x80 : 0) | 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) body[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([header, mask, body]);
}

export const textFrame = (text: string | Buffer) => frame({ opcode: 1, payload: Buffer.isBuffer(text) ? text : Buffer.from(text) });

export interface RawSocket {
  socket: Socket;
  /** Resolves with the close code the host sent (0 if it sent none) once the connection ends. */
  closed: Promise<{ code: number; reason: string }>;
  /** Text messages the host sent, in order. */
  messages: string[];
}

/** Upgrades a raw socket to the host's WebSocket with the right key and Origin, then parses what the host sends. */
export function rawUpgrade(port: number, key: string, opts: { origin?: string; host?: string } = {}): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const origin = opts.origin ?? `http://127.0.0.1:${port}`;
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    const messages: string[] = [];
    let closeFrame: { code: number; reason: string } | undefined;
    let resolveClosed!: (v: { code: number; reason: string }) => void;
    const closed = new Promise<{ code: number; reason: string }>((r) => (resolveClosed = r));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      resolveClosed(closeFrame ?? { code: 0, reason: '' });
      if (!upgraded) reject(new Error('the host closed the connection before the upgrade'));
    });
    socket.on('connect', () =>
      socket.write(
        `GET /ipc?key=${encodeURIComponent(key)} HTTP/1.1\r\nHost: ${opts.host ?? `127.0.0.1:${port}`}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`,
      ),
    );
    socket.on('data', (d) => {
      buffer = Buffer.concat([buffer, d]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) {
          socket.destroy();
          reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
          return;
        }
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve({ socket, closed, messages });
      }
      // Server frames are never masked.
      for (;;) {
        if (buffer.length < 2) return;
        let len = buffer[1]! & 0x7f;
        let offset = 2;
        if (len === 126) {
          if (buffer.length < 4) return;
          len = buffer.readUInt16BE(2);
          offset = 4;
        } else if (len === 127) {
          if (buffer.length < 10) return;
          len = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + len) return;
        const opcode = buffer[0]! & 0x0f;
        const payload = buffer.subarray(offset, offset + len);
        buffer = buffer.subarray(offset + len);
        if (opcode === 1) messages.push(payload.toString());
        if (opcode === 8 && !closeFrame) {
          closeFrame = { code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString() };
          // Answer the close handshake as a browser would, so the host ends the connection at once.
          if (socket.writable) socket.end(frame({ opcode: 8, payload: payload.subarray(0, 2) }));
        }
      }
    });
  });
}

/** A well-behaved client: the `ws` package with the right key and Origin. */
export function goodClient(port: number, key: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc?key=${encodeURIComponent(key)}`, { origin: `http://127.0.0.1:${port}` });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
  });
}

let nextId = 1_000_000;

/** One request round trip on a `ws` client; rejects if the socket closes first or nothing comes within `timeoutMs`. */
export function call(
  ws: WebSocket,
  channel: unknown,
  input: unknown,
  timeoutMs = 10_000,
): Promise<{ ok: boolean; value?: unknown; error?: { kind: string; message: string } }> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no answer to ${String(channel)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString()) as { type: string; id?: number; result?: never };
      if (msg.type === 'response' && msg.id === id) {
        cleanup();
        resolve(msg.result!);
      }
    };
    const onClose = (code: number) => {
      cleanup();
      reject(new Error(`the socket closed (${code}) before answering ${String(channel)}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      ws.off('message', onMessage);
      ws.off('close', onClose);
    };
    ws.on('message', onMessage);
    ws.on('close', onClose);
    ws.send(JSON.stringify({ type: 'request', id, channel, input }));
  });
}

/** A fresh authorized client does one round trip, then leaves: proof the host is up and serving. */
export async function stillServes(port: number, key: string): Promise<void> {
  const ws = await goodClient(port, key);
  try {
    const answer = await call(ws, 'app.echo', { text: 'still here' });
    if (!answer.ok || (answer.value as { text?: string }).text !== 'still here')
      throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  } finally {
    ws.terminate();
  }
}
