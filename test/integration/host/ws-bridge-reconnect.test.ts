/**
 * The browser-mode bridge when main goes away and comes back (issue 13),
 * against the real host: a request made with no link fails as "not sent"
 * within 5 s; one whose answer the drop took fails at once, a change as "may
 * not have completed" and reported as unanswered, a read without that
 * report; and when a host starts again on the same port with the same run
 * key (what the CLI does from its data folder), the bridge reconnects by
 * itself and serves again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Router } from '../../../main/ipc/router';
import { createWsBridge, type LinkState, type UnansweredRequest } from '../../../renderer/src/transport/ws-bridge';
import { startTestHost, type TestHost } from '../../support/web-host';

describe('browser-mode bridge: main lost and back', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'egress-bridge-reconnect-'));
  let t: TestHost | undefined;
  let port = 0;
  let key = '';
  let origin = '';
  const sockets: WebSocket[] = [];
  /** Requests on these channels never get an answer while set: they are in flight when the host goes. */
  const held = new Set<string>();
  const hold: (router: Router) => Router = (router) => ({
    ...router,
    dispatch: (channel, input, ctx) => (held.has(String(channel)) ? new Promise(() => undefined) : router.dispatch(channel, input, ctx)),
  });

  const start = async (opts: { port?: number; key?: string } = {}) =>
    startTestHost({ demo: 'off', dataDir, wrapRouter: hold, host: opts.port ? { port: opts.port, key: opts.key } : {} });

  beforeAll(async () => {
    t = await start();
    ({ port, key, origin } = t.host);
    class PageWebSocket extends WebSocket {
      constructor(url: string) {
        super(url, { origin });
        this.on('error', () => undefined);
        sockets.push(this);
      }
    }
    vi.stubGlobal('WebSocket', PageWebSocket);
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    for (const ws of sockets) {
      ws.onclose = null;
      ws.terminate();
    }
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const until = async (check: () => boolean, ms = 8000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('fails pending requests within 5 s, reports an unanswered change, and reconnects when main is back', async () => {
    const states: LinkState[] = [];
    const unanswered: UnansweredRequest[] = [];
    const api = createWsBridge(`ws://127.0.0.1:${port}/ipc?key=${encodeURIComponent(key)}`, (s) => states.push(s), {
      onUnanswered: (u) => unanswered.push(u),
    });
    expect(await api.request['app.echo']({ text: 'before' })).toEqual({ ok: true, value: { text: 'before' } });

    // A change and a read in flight when main goes.
    held.add('settings.set');
    held.add('tasks.list');
    const change = api.request['settings.set']({ settings: { cleanupGraceMinutes: 20 } });
    const read = api.request['tasks.list']({});
    await new Promise((r) => setTimeout(r, 100));
    const lostAt = Date.now();
    await t!.close();
    t = undefined;

    const [changeAnswer, readAnswer] = await Promise.all([change, read]);
    expect(Date.now() - lostAt).toBeLessThan(5000);
    expect(changeAnswer).toMatchObject({ ok: false, error: { kind: 'transient', message: expect.stringMatching(/did not answer: the request may not have completed/) } });
    expect(readAnswer).toMatchObject({ ok: false, error: { kind: 'transient', message: expect.stringMatching(/did not answer/) } });
    expect(unanswered.map((u) => u.channel)).toEqual(['settings.set']);
    await until(() => states.at(-1) !== 'open');

    // Made with no link at all: not sent, within 5 s, and never sent later.
    const started = Date.now();
    const notSent = await api.request['settings.set']({ settings: { cleanupGraceMinutes: 25 } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(notSent).toMatchObject({ ok: false, error: { kind: 'transient', message: expect.stringMatching(/the request was not sent/) } });

    // Main again, on the same port with the same key: the bridge finds it by itself.
    held.clear();
    t = await start({ port, key });
    await until(() => states.at(-1) === 'open');
    expect(await api.request['app.echo']({ text: 'after' })).toEqual({ ok: true, value: { text: 'after' } });
    const settings = await api.request['settings.get']({});
    // Neither the lost nor the unsent change reached the new main.
    expect(settings.ok && settings.value.cleanupGraceMinutes).not.toBe(25);
    expect(unanswered).toHaveLength(1);
  }, 30_000);

  it('sends a request made while reconnecting once the link is back within the timeout', async () => {
    const states: LinkState[] = [];
    const api = createWsBridge(`ws://127.0.0.1:${port}/ipc?key=${encodeURIComponent(key)}`, (s) => states.push(s), { maxRetryMs: 200 });
    await until(() => states.at(-1) === 'open');
    await t!.close();
    t = undefined;
    await until(() => states.includes('closed'));
    const answer = api.request['app.echo']({ text: 'queued' });
    t = await start({ port, key });
    expect(await answer).toEqual({ ok: true, value: { text: 'queued' } });
  }, 30_000);
});
