/**
 * The renderer's browser-mode transport (renderer/src/transport/ws-bridge.ts)
 * against the real host, with the `ws` package standing in for the browser's
 * WebSocket (it sends the page's Origin). A request too big for the socket
 * gets a clear invalid-input answer, never a hang: refused before sending once
 * the host's hello gave the limit, or by the host's 1009 close when it was
 * sent before that. The bridge goes on serving afterwards.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES } from '../../../main/host/web-host';
import type { DesktopApi } from '../../../shared/api';
import { createWsBridge, type LinkState } from '../../../renderer/src/transport/ws-bridge';
import { startTestHost, type TestHost } from '../../support/web-host';

describe('browser-mode bridge and oversized requests', () => {
  let t: TestHost;
  const states: LinkState[] = [];
  const bridges: WebSocket[] = [];
  beforeAll(async () => {
    t = await startTestHost({ demo: 'off' });
    const origin = t.host.origin;
    class PageWebSocket extends WebSocket {
      constructor(url: string) {
        super(url, { origin });
        // A browser's WebSocket never throws on an error event; the `ws` package does without a listener.
        this.on('error', () => undefined);
        bridges.push(this);
      }
    }
    vi.stubGlobal('WebSocket', PageWebSocket);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const ws of bridges) {
      ws.onclose = null;
      ws.terminate();
    }
    await t.close();
  });

  const open = () => createWsBridge(`ws://127.0.0.1:${t.host.port}/ipc?key=${encodeURIComponent(t.host.key)}`, (s) => states.push(s));
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 5000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  // Over the frame limit even before escaping; control characters make it six bytes each once encoded.
  const oversized = () => '\u0001'.repeat(Math.ceil(MAX_FRAME_BYTES / 6) + 1000);

  it('answers a request over the host’s frame limit with invalid-input at once, without sending it', async () => {
    const api: DesktopApi = open();
    expect(await api.request['app.echo']({ text: 'warm' })).toEqual({ ok: true, value: { text: 'warm' } });
    const socketsBefore = bridges.length;
    const started = Date.now();
    const answer = await api.request['profiles.import']({ json: oversized() });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringMatching(/too large/) } });
    // Same socket, still serving.
    expect(await api.request['app.echo']({ text: 'after' })).toEqual({ ok: true, value: { text: 'after' } });
    expect(bridges.length).toBe(socketsBefore);
  });

  it('turns the host’s 1009 close into a clear error for a request sent before the hello, then reconnects', async () => {
    const api: DesktopApi = open();
    // Queued before the socket opens, flushed on open: the host refuses the frame itself.
    const answer = await api.request['profiles.import']({ json: oversized() });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringMatching(/too large/) } });
    expect(t.logger.lines.some((l) => l.includes('browser-mode socket error') && l.includes('1009'))).toBe(true);
    await until(() => states.filter((s) => s === 'open').length >= 3);
    expect(await api.request['app.echo']({ text: 'reconnected' })).toEqual({ ok: true, value: { text: 'reconnected' } });
  });

  it('still answers a 3.9 MB import through the bridge', async () => {
    const api: DesktopApi = open();
    const answer = await api.request['profiles.import']({ json: 'x'.repeat(3_900_000) });
    expect(typeof answer.ok).toBe('boolean');
    expect(answer.ok === false && /too large|lost/.test(answer.error.message)).toBe(false);
  });
});
