/**
 * One authorized socket floods the host with requests. The host works on at
 * most MAX_IN_FLIGHT of them at a time per socket and answers every other one
 * at once, by its id, with a transient "too many requests in flight" error:
 * nothing is dropped silently, memory stays bounded, and another socket is
 * served promptly meanwhile. A socket that stops reading is cut off once its
 * unsent output passes the limit, instead of growing the host's memory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT } from '../../../main/host/web-host';
import type { Router } from '../../../main/ipc/router';
import { startTestHost, type TestHost } from '../../support/web-host';
import { call, goodClient, rawUpgrade, stillServes, textFrame } from './raw-client';

/** Counts dispatches in progress and remembers the most at once. */
function counting() {
  const stats = { now: 0, max: 0, total: 0 };
  const wrap = (router: Router): Router => ({
    channels: router.channels,
    async dispatch(channel, input, ctx) {
      stats.now++;
      stats.total++;
      stats.max = Math.max(stats.max, stats.now);
      try {
        return await router.dispatch(channel, input, ctx);
      } finally {
        stats.now--;
      }
    },
  });
  return { stats, wrap };
}

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('browser-mode socket under a flood', () => {
  it('works on at most MAX_IN_FLIGHT requests per socket, answers every refused one by id, and serves another socket meanwhile', async () => {
    const { stats, wrap } = counting();
    t = await startTestHost({ demo: 'off', wrapRouter: wrap });
    const flooder = await rawUpgrade(t.host.port, t.host.key);
    const victim = await goodClient(t.host.port, t.host.key);
    const N = 20_000;
    // profiles.list takes a little real work per request; echo would also push an event to every socket.
    const frames: Buffer[] = [];
    for (let id = 1; id <= N; id++)
      frames.push(
        textFrame(
          JSON.stringify({ type: 'request', id, channel: id % 2 ? 'profiles.list' : 'app.echo', input: id % 2 ? {} : { text: 'x' } }),
        ),
      );
    flooder.socket.write(Buffer.concat(frames));

    const started = Date.now();
    expect(await call(victim, 'app.echo', { text: 'victim' }, 5000)).toEqual({ ok: true, value: { text: 'victim' } });
    const victimMs = Date.now() - started;

    const answered = new Map<number, { ok: boolean; error?: { kind: string; message: string } }>();
    const deadline = Date.now() + 20_000;
    while (answered.size < N && Date.now() < deadline) {
      for (const m of flooder.messages.splice(0)) {
        const msg = JSON.parse(m) as { type: string; id: number; result: { ok: boolean; error?: { kind: string; message: string } } };
        if (msg.type !== 'response') continue;
        expect(answered.has(msg.id), `a second answer to ${msg.id}`).toBe(false);
        answered.set(msg.id, msg.result);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(answered.size).toBe(N);
    const refused = [...answered.values()].filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused)
      expect(r.error).toMatchObject({ kind: 'transient', message: expect.stringMatching(/too many requests in flight/i) });
    expect(refused.length).toBe(N - stats.total + 1);
    // The victim's one request may overlap with the flooder's.
    expect(stats.max).toBeLessThanOrEqual(MAX_IN_FLIGHT + 1);
    expect(victimMs).toBeLessThan(2000);
    flooder.socket.destroy();
    victim.close();
  });

  it('cuts off a socket that stops reading once its unsent output passes the limit, and keeps serving others', async () => {
    t = await startTestHost({ demo: 'off', host: { maxBufferedBytes: 256 * 1024 } });
    const slow = await rawUpgrade(t.host.port, t.host.key);
    slow.socket.pause();
    const frames: Buffer[] = [];
    const padding = 'y'.repeat(200);
    for (let id = 1; id <= 60_000; id++)
      frames.push(textFrame(JSON.stringify({ type: 'request', id, channel: 'app.echo', input: { text: padding } })));
    slow.socket.write(Buffer.concat(frames));
    const deadline = Date.now() + 15_000;
    while (!t.logger.lines.some((l) => l.includes('reads too slowly')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(t.logger.lines.some((l) => l.includes('reads too slowly'))).toBe(true);
    slow.socket.resume();
    await slow.closed;
    await stillServes(t.host.port, t.host.key);
  });
});
