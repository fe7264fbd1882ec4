/**
 * Fuzzes the browser-mode host where an attacker or a broken client can
 * reach it: arbitrary bytes as the HTTP request-target (written raw over a
 * net.Socket, so nothing normalises them), and arbitrary WebSocket frames on
 * an upgraded, authorized socket (any opcode, RSV bits, masked or not,
 * bad UTF-8, declared lengths around every limit: 125/126, 65535/65536,
 * maxPayload±1, 2^53, 2^64-1). After every batch the host must still be up,
 * no promise or exception may have escaped, and a second client must still
 * get an answer.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../../main/host/web-host';
import { startTestHost, type TestHost } from '../../support/web-host';
import { frame, rawRequest, rawUpgrade, stillServes, type FrameSpec } from './raw-client';

const SECRET = 'fuzz-outside-the-folder-91c2';
const BATCH = 25;

/** `..` and a separator, in every spelling, climbing towards the file next to the static folder. */
const traversal = fc
  .array(
    fc.tuple(
      fc.constantFrom('..', '%2e%2e', '.%2e', '%2e.', '%2E%2E', '.', 'assets'),
      fc.constantFrom('/', '%2f', '%2F', '\\', '%5c', '%5C', '//'),
    ),
    {
      minLength: 1,
      maxLength: 4,
    },
  )
  .map((steps) => Buffer.from('/' + steps.map(([dir, sep]) => dir + sep).join('') + 'secret.txt', 'latin1'));

/** Path bytes: mostly pieces that mean something to a path parser, and some plain noise. */
const noise = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/',
        '..',
        '.',
        '%',
        '%2e',
        '%2E',
        '%2f',
        '%5c',
        '%00',
        '%25',
        '%c3',
        '%28',
        '%ff',
        '\\',
        '?',
        '#',
        'index.html',
        'assets',
        'secret.txt',
        ':',
        '~',
        '%u002e',
      ),
      fc.uint8Array({ minLength: 1, maxLength: 8 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => Buffer.from('/' + parts.join(''), 'latin1'));

const pathBytes = fc.oneof(noise, traversal);

const interestingLengths = [
  0,
  1,
  124,
  125,
  126,
  127,
  65535,
  65536,
  65537,
  MAX_FRAME_BYTES - 1,
  MAX_FRAME_BYTES,
  MAX_FRAME_BYTES + 1,
  2 ** 53 - 1,
  2 ** 53,
];

const frameSpec: fc.Arbitrary<FrameSpec> = fc.record(
  {
    opcode: fc.oneof(fc.constantFrom(0, 1, 2, 8, 9, 10), fc.integer({ min: 0, max: 15 })),
    fin: fc.boolean(),
    rsv: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 7 }) }),
    masked: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    payload: fc.oneof(
      fc.uint8Array({ maxLength: 140 }).map((b) => Buffer.from(b)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
      fc
        .record({
          id: fc.integer(),
          channel: fc.oneof(fc.constantFrom('app.echo', 'app.version', 'profiles.list', '__proto__', 'constructor'), fc.string()),
          input: fc.jsonValue({ maxDepth: 2 }),
        })
        .map((r) => Buffer.from(JSON.stringify({ type: 'request', ...r }))),
      // Invalid UTF-8 inside otherwise plain text.
      fc.constantFrom(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80])),
      fc.constantFrom(125, 126, 65535, 65536).map((n) => Buffer.alloc(n, 0x61)),
    ),
    declaredLength: fc
      .option(fc.oneof(fc.constantFrom(...interestingLengths), fc.constant(2n ** 64n - 1n)), { freq: 3 })
      .map((v) => v ?? undefined),
  },
  { requiredKeys: ['opcode'] },
);

describe('browser-mode host under fuzzed input', () => {
  let t: TestHost;
  const escaped: unknown[] = [];
  const onEscape = (reason: unknown) => escaped.push(reason);
  let runs = 0;
  const checkpoint = async () => {
    if (++runs % BATCH !== 0) return;
    await stillServes(t.host.port, t.host.key);
    expect(escaped).toEqual([]);
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onEscape);
    process.on('uncaughtException', onEscape);
    const base = mkdtempSync(join(tmpdir(), 'egress-fuzz-'));
    const staticDir = join(base, 'renderer');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(base, 'secret.txt'), SECRET);
    t = await startTestHost({ demo: 'off', host: { staticDir } });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onEscape);
    process.off('uncaughtException', onEscape);
    await t.close();
  });

  it('answers every request-target with a status below 500, never a file outside the folder', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(pathBytes, fc.constantFrom('GET', 'HEAD'), async (target, method) => {
        const r = await rawRequest(t.host.port, target, { method });
        expect(r.status, target.toString('latin1')).toBeGreaterThanOrEqual(200);
        expect(r.status, target.toString('latin1')).toBeLessThan(500);
        expect(r.body.toString('latin1')).not.toContain(SECRET);
        await checkpoint();
      }),
      { numRuns: 400 },
    );
    await stillServes(t.host.port, t.host.key);
    expect(escaped).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('survives arbitrary frames on an authorized socket, and keeps serving a second client', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(frameSpec, { minLength: 1, maxLength: 3 }), async (specs) => {
        const raw = await rawUpgrade(t.host.port, t.host.key);
        raw.socket.write(Buffer.concat(specs.map(frame)));
        // Give the host a moment to answer, close, or wait for the rest of a declared frame.
        await Promise.race([raw.closed, new Promise((r) => setTimeout(r, 15))]);
        raw.socket.destroy();
        await checkpoint();
      }),
      { numRuns: 400 },
    );
    await stillServes(t.host.port, t.host.key);
    expect(escaped).toEqual([]);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
