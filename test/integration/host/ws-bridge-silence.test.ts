/**
 * A main that hangs keeps its socket open: no close event ever comes. The
 * host beats every second, so the bridge treats a silent link as lost and a
 * pending request fails within 5 s (issue 13), while a slow request on a
 * main that still beats is left alone.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createWsBridge, type LinkState, type UnansweredRequest } from '../../../renderer/src/transport/ws-bridge';

/** A stand-in host: says hello, then beats (or not), and never answers a request. */
async function fakeHost(beat: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer();
  const wss = new WebSocketServer({ server });
  const timers: NodeJS.Timeout[] = [];
  wss.on('connection', (ws) => {
    ws.on('error', () => undefined);
    ws.send(JSON.stringify({ type: 'hello', maxFrameBytes: 1 << 20 }));
    if (beat) timers.push(setInterval(() => ws.send(JSON.stringify({ type: 'beat' })), 200));
    // Hung: reads nothing more, so it never answers a request nor the close handshake.
    else (ws as unknown as { _socket: { pause(): void } })._socket.pause();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ipc`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('browser-mode bridge: a hung main', () => {
  let host: Awaited<ReturnType<typeof fakeHost>> | undefined;
  afterEach(async () => {
    vi.unstubAllGlobals();
    await host?.close();
  });

  const stubSocket = () =>
    vi.stubGlobal(
      'WebSocket',
      class extends WebSocket {
        constructor(url: string) {
          super(url);
          this.on('error', () => undefined);
        }
      },
    );

  it('fails a pending change within 5 s when main stops beating, and reports it as unanswered', async () => {
    host = await fakeHost(false);
    stubSocket();
    const states: LinkState[] = [];
    const unanswered: UnansweredRequest[] = [];
    const api = createWsBridge(host.url, (s) => states.push(s), { onUnanswered: (r) => unanswered.push(r), maxRetryMs: 60_000 });
    while (!states.includes('open')) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    const answer = await api.request['profiles.delete']({ id: 'x' } as never);
    const waited = Date.now() - started;
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toMatch(/may not have completed/);
    expect(waited).toBeLessThan(5000);
    expect(states).toContain('closed');
    expect(unanswered.map((u) => u.channel)).toEqual(['profiles.delete']);
  });

  it('leaves a slow request alone while main still beats', async () => {
    host = await fakeHost(true);
    stubSocket();
    const states: LinkState[] = [];
    const api = createWsBridge(host.url, (s) => states.push(s), { silenceMs: 1000 });
    while (!states.includes('open')) await new Promise((r) => setTimeout(r, 20));
    let settled = false;
    void api.request['app.echo']({ text: 'slow' } as never).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 2500));
    expect(settled).toBe(false);
    expect(states).not.toContain('closed');
  });
});
