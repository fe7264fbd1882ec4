/**
 * A sentinel secret echoed back by the server reaches no error, no thrown
 * value and no log line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, startHarness, TOKEN_ID, type Harness } from './harness';

const SENTINEL = 'sentinel-9f8e7d6c5b4a-secret';
let h: Harness;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'egress-token-'));
  const tokenFile = join(dir, 'token');
  await writeFile(tokenFile, `${TOKEN_ID}=${SENTINEL}\n`);
  h = await startHarness({ token: { kind: 'file', path: tokenFile } });
  // The server echoes the Authorization header in every part of the answer it can.
  const echo = (status: number) => (req: { headers: Record<string, unknown> }) => {
    const auth = String(req.headers.authorization);
    return {
      status,
      reason: `denied ${auth.replace(/[^\x20-\x7e]/g, '')}`,
      body: JSON.stringify({ data: null, message: `bad token ${auth}\n`, errors: { token: auth } }),
    };
  };
  h.server.route('GET', '/version', echo(401));
  h.server.route('GET', '/nodes', echo(500));
  h.server.route('GET', '/cluster/status', () => ({ status: 401, reason: `No ticket ${SENTINEL}`, body: '' }));
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

function expectClean(err: Error): void {
  for (const text of [String(err), JSON.stringify(err), err.stack ?? '', err.message, JSON.stringify(Object.entries(err))]) {
    expect(text).not.toContain(SENTINEL);
  }
}

describe('the secret never leaks', () => {
  it('the server did receive it (so the checks below could fail)', async () => {
    await failureOf(h.client.version());
    expect(String(h.server.requests.at(-1)!.headers.authorization)).toContain(SENTINEL);
  });

  it.each([
    ['a 401 echoing it in body, field map and reason', () => h.client.version()],
    ['a 500 echoing it', () => h.client.nodes()],
    ['a 401 with it in the reason phrase only', () => h.client.clusterStatus()],
  ])('%s', async (_label, run) => {
    const err = await failureOf(run());
    expectClean(err);
    expect(String(err)).toContain('[redacted]');
  });

  it('no log line carries it', () => {
    expect(h.log.lines.length).toBeGreaterThan(0);
    for (const line of h.log.lines) expect(line).not.toContain(SENTINEL);
  });
});
