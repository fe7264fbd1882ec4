/**
 * Browser mode as a real process (`main/host/cli.ts`, what `npm run start:web`
 * runs), so "the host died" means the process exited, not a test runner
 * catching an exception: after a broken path, an oversized frame and a
 * protocol error the process is still alive and a second client is served.
 * A startup error (the port taken) prints the error and the data folder and
 * exits non-zero instead of dying on an unhandled rejection.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES } from '../../../main/host/web-host';
import { printedUrl, startCli } from '../../support/cli-process';
import { rendererMissingReason } from '../../support/web-host';
import { frame, rawRequest, rawUpgrade, stillServes, textFrame } from './raw-client';

const missing = rendererMissingReason();

describe.skipIf(missing)('browser mode as a process', () => {
  let child: ReturnType<typeof startCli>;
  let port = 0;
  let key = '';
  const alive = () => child.alive();

  beforeAll(async () => {
    child = startCli({ EGRESS_DESK_DATA_DIR: mkdtempSync(join(tmpdir(), 'egress-cli-')), EGRESS_DESK_PORT: '0' });
    ({ port, key } = await printedUrl(child));
  }, 30_000);
  afterAll(async () => {
    if (alive()) {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  });

  it('stays up after GET /% and still serves a second client', async () => {
    expect((await rawRequest(port, '/%')).status).toBe(400);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(), child.output()).toBe(true);
    await stillServes(port, key);
  });

  it('stays up after a frame over the limit (1009) and a protocol error (1007)', async () => {
    const big = await rawUpgrade(port, key);
    big.socket.write(frame({ opcode: 1, declaredLength: MAX_FRAME_BYTES + 1 }));
    expect((await big.closed).code).toBe(1009);
    const bad = await rawUpgrade(port, key);
    bad.socket.write(textFrame(Buffer.from([0xff, 0xfe])));
    expect((await bad.closed).code).toBe(1007);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(), child.output()).toBe(true);
    await stillServes(port, key);
    expect(child.output()).not.toMatch(/Unhandled|uncaught/i);
  });

  it('exits non-zero with the error and the data folder when it cannot start (port taken)', async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const takenPort = (taken.address() as { port: number }).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-cli-fail-'));
    try {
      const failing = startCli({ EGRESS_DESK_DATA_DIR: dataDir, EGRESS_DESK_PORT: String(takenPort) });
      const code = await failing.exited;
      expect(code, failing.output()).not.toBe(0);
      expect(code).not.toBeNull();
      expect(failing.output()).toContain('EADDRINUSE');
      expect(failing.output()).toContain(dataDir);
      // A message for a person, not Node's dump of an unhandled rejection.
      expect(failing.output()).not.toMatch(/triggerUncaughtException|Unhandled|node:internal/);
    } finally {
      taken.close();
    }
  }, 30_000);
});
