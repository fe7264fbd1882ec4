import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestHost, type TestHost } from '../../support/web-host';

/** Opens the host's socket with the given key and Origin; resolves with the HTTP status of a refusal or 101. */
function tryConnect(t: TestHost, opts: { key?: string; origin?: string; path?: string }): Promise<{ status: number; ws?: WebSocket }> {
  const query = opts.key === undefined ? '' : `?key=${encodeURIComponent(opts.key)}`;
  const headers: Record<string, string> = {};
  if (opts.origin !== undefined) headers.Origin = opts.origin;
  const ws = new WebSocket(`ws://127.0.0.1:${t.host.port}${opts.path ?? '/ipc'}${query}`, { headers });
  return new Promise((resolve) => {
    ws.on('open', () => resolve({ status: 101, ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

function call(ws: WebSocket, id: number, channel: unknown, input: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString()) as { type: string; id?: number; result?: unknown };
      if (msg.type === 'response' && msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg.result);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'request', id, channel, input }));
  });
}

describe('browser-mode socket', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost();
  });
  afterAll(async () => {
    await t.close();
  });

  it('listens on loopback only', () => {
    expect(t.host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a socket without the run key', async () => {
    expect((await tryConnect(t, { origin: t.host.origin })).status).toBe(401);
  });

  it('refuses a socket with a wrong run key, even one of the right length', async () => {
    const wrong = t.host.key.slice(0, -1) + (t.host.key.endsWith('A') ? 'B' : 'A');
    expect((await tryConnect(t, { key: wrong, origin: t.host.origin })).status).toBe(401);
  });

  it('refuses a foreign Origin even with the right key', async () => {
    expect((await tryConnect(t, { key: t.host.key, origin: 'http://evil.example' })).status).toBe(403);
    expect((await tryConnect(t, { key: t.host.key, origin: `http://localhost:${t.host.port}` })).status).toBe(403);
  });

  it('refuses a socket with no Origin at all (not a page of ours)', async () => {
    expect((await tryConnect(t, { key: t.host.key })).status).toBe(403);
  });

  it('logs each refusal without the key', async () => {
    await tryConnect(t, { key: 'nope', origin: t.host.origin });
    const refusals = t.logger.lines.filter((l) => l.includes('socket refused'));
    expect(refusals.length).toBeGreaterThan(0);
    for (const line of t.logger.lines) expect(line).not.toContain(t.host.key);
  });

  it('serves the contract to the right key and Origin', async () => {
    const { status, ws } = await tryConnect(t, { key: t.host.key, origin: t.host.origin });
    expect(status).toBe(101);
    expect(await call(ws!, 1, 'app.echo', { text: 'ping' })).toEqual({ ok: true, value: { text: 'ping' } });
    ws!.close();
  });

  it('closes a socket that sends garbage, and keeps serving others', async () => {
    const bad = (await tryConnect(t, { key: t.host.key, origin: t.host.origin })).ws!;
    const closed = new Promise<number>((resolve) => bad.on('close', (code) => resolve(code)));
    bad.send('this is not json');
    expect(await closed).toBe(1003);
    const good = (await tryConnect(t, { key: t.host.key, origin: t.host.origin })).ws!;
    expect(await call(good, 7, 'app.version', {})).toMatchObject({ ok: true });
    good.close();
  });
});
