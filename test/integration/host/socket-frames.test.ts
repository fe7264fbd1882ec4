/**
 * The browser-mode socket under frames that break the WebSocket protocol or
 * its size limit, and the largest input the contract allows. A bad frame
 * closes that one socket with the protocol's code and is logged; the host
 * stays up and a second, authorized client is still served. The frame limit
 * is derived from the contract, so a 3.9 MB `profiles.import` gets an answer.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../../shared/contract';
import { MAX_FRAME_BYTES, largestTextInput } from '../../../main/host/web-host';
import { startTestHost, type TestHost } from '../../support/web-host';
import { call, frame, goodClient, rawUpgrade, stillServes, textFrame } from './raw-client';

describe('browser-mode socket frames', () => {
  let t: TestHost;
  const crashes: unknown[] = [];
  const onCrash = (reason: unknown) => crashes.push(reason);
  beforeAll(async () => {
    process.on('unhandledRejection', onCrash);
    process.on('uncaughtException', onCrash);
    t = await startTestHost({ demo: 'off' });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
    await t.close();
  });

  it('derives the frame limit from the contract: the largest import, every character escaped, fits', () => {
    const importJson = channels['profiles.import'].input.shape.json;
    expect(largestTextInput()).toEqual({ channel: 'profiles.import', maxChars: importJson.maxLength });
    // The worst JSON escaping: each UTF-16 unit of a control character or a lone surrogate becomes six bytes.
    const worst = JSON.stringify({
      type: 'request',
      id: Number.MAX_SAFE_INTEGER,
      channel: 'profiles.import',
      input: { json: '\u0001'.repeat(importJson.maxLength!) },
    });
    expect(MAX_FRAME_BYTES).toBeGreaterThanOrEqual(Buffer.byteLength(worst));
    expect(MAX_FRAME_BYTES).toBeLessThan(Buffer.byteLength(worst) + (1 << 20));
  });

  it('answers a 3.9 MB profiles.import (over the old 1 MiB frame limit) with an envelope, not a disconnect', async () => {
    const ws = await goodClient(t.host.port, t.host.key);
    // A JSON text full of quotes, as an export is: escaping makes the frame bigger than the text.
    const entry = JSON.stringify({ name: 'cluster "a"', url: 'https://pve.example:8006', note: 'x'.repeat(200) });
    let json = '[';
    while (json.length < 3_900_000 - entry.length - 2) json += entry + ',';
    json += entry + ']';
    expect(json.length).toBeGreaterThan(3_800_000);
    expect(Buffer.byteLength(JSON.stringify({ json }))).toBeGreaterThan(4_000_000);
    const answer = await call(ws, 'profiles.import', { json }, 20_000);
    expect(typeof answer.ok).toBe('boolean');
    expect(ws.readyState).toBe(ws.OPEN);
    ws.close();
  });

  it('closes a frame over the limit with 1009, logs it, and keeps serving others', async () => {
    const raw = await rawUpgrade(t.host.port, t.host.key);
    // The header alone declares the size; the host refuses before any payload arrives.
    raw.socket.write(frame({ opcode: 1, declaredLength: MAX_FRAME_BYTES + 1 }));
    expect((await raw.closed).code).toBe(1009);
    expect(t.logger.lines.some((l) => l.includes('browser-mode socket error') && l.includes('1009'))).toBe(true);
    await stillServes(t.host.port, t.host.key);
    expect(crashes).toEqual([]);
  });

  it.each([
    { what: 'invalid UTF-8 in a text frame', bytes: textFrame(Buffer.from([0x7b, 0xc3, 0x28, 0x7d])), code: 1007 },
    { what: 'an unmasked client frame', bytes: frame({ opcode: 1, payload: Buffer.from('{}'), masked: false }), code: 1002 },
    { what: 'an unknown opcode', bytes: frame({ opcode: 3, payload: Buffer.from('x') }), code: 1002 },
    { what: 'RSV1 without an extension', bytes: frame({ opcode: 1, payload: Buffer.from('{}'), rsv: 4 }), code: 1002 },
    { what: 'a control frame over 125 bytes', bytes: frame({ opcode: 9, payload: Buffer.alloc(126) }), code: 1002 },
    { what: 'a fragmented control frame', bytes: frame({ opcode: 9, payload: Buffer.from('p'), fin: false }), code: 1002 },
    { what: 'a continuation with nothing to continue', bytes: frame({ opcode: 0, payload: Buffer.from('x') }), code: 1002 },
    { what: 'a binary frame', bytes: frame({ opcode: 2, payload: Buffer.from('{}') }), code: 1003 },
    { what: 'a close frame with an invalid code', bytes: frame({ opcode: 8, payload: Buffer.from([0x03, 0xe7]) }), code: 1002 },
  ])('closes a socket that sends $what (code $code), and keeps serving others', async ({ bytes, code }) => {
    const raw = await rawUpgrade(t.host.port, t.host.key);
    raw.socket.write(bytes);
    expect((await raw.closed).code).toBe(code);
    await stillServes(t.host.port, t.host.key);
    expect(crashes).toEqual([]);
  });

  it('survives a client that resets its connection mid-frame and right after a refused upgrade', async () => {
    for (let i = 0; i < 20; i++) {
      const raw = await rawUpgrade(t.host.port, t.host.key);
      raw.socket.write(frame({ opcode: 1, declaredLength: 1000 }).subarray(0, 5));
      raw.socket.resetAndDestroy();
      const refused = connect(t.host.port, '127.0.0.1', () => {
        refused.write(`GET /ipc?key=wrong HTTP/1.1\r\nHost: 127.0.0.1:${t.host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`);
        setImmediate(() => refused.resetAndDestroy());
      });
      refused.on('error', () => undefined);
    }
    await new Promise((r) => setTimeout(r, 200));
    await stillServes(t.host.port, t.host.key);
    expect(crashes).toEqual([]);
  });
});
