/**
 * What main does with a webhook server's answer, against real loopback
 * servers, through the IPC router (what the renderer receives) and the log:
 *
 * - an answer of hundreds of MiB is read only as far as it is used, and the
 *   rest is never fetched: the server sees the connection closed long before
 *   its body ends, at each of the three attempts, and for a 2xx as well;
 * - a page of another service (a router's admin page on loopback) never
 *   reaches the renderer: the status and a sanitised reason only;
 * - a server that echoes the token back, in base64 inside `Bearer …` or as
 *   is, gets none of it into the error text or the log, in any encoding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookTarget } from '../../../../shared/channels/alerts';
import type { AppErrorValue } from '../../../../shared/errors';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { secretForms } from '../../../../main/log/secrets';
import { defaultSendPolicy } from '../../../../main/services/alerts/webhook-sender';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { endlessAnswer, type Streamed } from '../../../support/endless-body';
import { startWebhookReceiver, type WebhookReceiver } from '../../../support/webhook-receiver';
import { tempDir } from '../profiles/helpers';

const SENTINEL = 'tk_SENTINEL-webhook-answers-1f2e3d4c5b6a';
const MiB = 2 ** 20;
const ctx = { signal: new AbortController().signal, transport: 'test' };
const logger = createMemoryLogger('debug');
let receiver: WebhookReceiver;
let app: ComposedApp;
let dataDir: string;
const events: string[] = [];
const ids: Record<'ntfy' | 'gotify' | 'generic', string> = { ntfy: '', gotify: '', generic: '' };

const call = (channel: string, input: unknown) => app.router.dispatch(channel, input, ctx);

async function failedTest(id: string): Promise<AppErrorValue> {
  const answer = await call('alerts.testTarget', { id });
  if (answer.ok) throw new Error(`the test was sent: ${JSON.stringify(answer.value)}`);
  return answer.error;
}

/** Whether any run of base64 in `text` decodes, at any offset, to 4 bytes of `secret` in a row. */
function readable(text: string, secret: string): boolean {
  const bytes = Buffer.from(secret, 'utf8');
  const pieces = Array.from({ length: bytes.length - 3 }, (_, i) => bytes.subarray(i, i + 4));
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? [])
    for (let skip = 0; skip < 4; skip++) {
      const decoded = Buffer.from(run.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      if (pieces.some((p) => decoded.includes(p))) return true;
    }
  return false;
}

function noSentinelIn(text: string) {
  for (const form of secretForms(SENTINEL)) expect(text).not.toContain(form);
  expect(readable(text, SENTINEL)).toBe(false);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  app = composeApp({
    mode: 'browser',
    version: '0',
    runtime: nodeRuntime(),
    logger,
    dataDir: (dataDir = await tempDir()),
    demo: 'off',
    secretVault: createMemoryVault(),
    alerts: { sendPolicy: { ...defaultSendPolicy, timeoutMs: 20_000, sleep: async () => undefined } },
  });
  app.bus.subscribe((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));
  const save = async (input: Record<string, unknown>) => {
    const answer = await call('alerts.saveTarget', { enabled: true, secret: SENTINEL, ...input });
    if (!answer.ok) throw new Error(answer.error.message);
    return (answer.value as WebhookTarget).id;
  };
  ids.ntfy = await save({ name: 'phone', format: 'ntfy', url: receiver.url, topic: 'lab' });
  ids.gotify = await save({ name: 'gotify', format: 'gotify', url: receiver.url });
  ids.generic = await save({ name: 'hook', format: 'generic', url: `${receiver.url}/hook` });
});
afterAll(async () => {
  await app?.dispose();
  await receiver?.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer(200);
});

describe('a huge answer', () => {
  it('of 300 MiB to a failing post is read only as far as it is used, at each of the three attempts', async () => {
    const streams: Streamed[] = [];
    receiver.respond(endlessAnswer(500, 300 * MiB, streams));
    const error = await failedTest(ids.generic);
    expect(error).toMatchObject({ kind: 'transient', message: expect.stringMatching(/^127\.0\.0\.1:\d+ answered 500 to the webhook\./) });
    expect(streams).toHaveLength(3);
    for (const s of streams) {
      expect(s.ended).toBe(false); // the app hung up long before the body ended
      expect(s.written).toBeLessThan(16 * MiB);
    }
  });

  it('of 300 MiB to a post that passed is read no further than the bound either', async () => {
    const streams: Streamed[] = [];
    receiver.respond(endlessAnswer(200, 300 * MiB, streams));
    const answer = await call('alerts.testTarget', { id: ids.ntfy });
    expect(answer).toEqual({ ok: true, value: { message: 'Sent: the server answered 200.' } });
    expect(streams).toHaveLength(1);
    expect(streams[0]!.ended).toBe(false);
    expect(streams[0]!.written).toBeLessThan(16 * MiB);
  });
});

describe("another service's page", () => {
  const page = '<html><body><h1>Router admin</h1><p>Welcome back, admin. session=8c1f0e2d9b7a</p></body></html>';

  it.each([
    ['text/html', 500],
    ['text/html', 403],
    ['text/plain', 400],
    ['application/json', 404],
  ])('never reaches the renderer (%s, %i): the status and the app’s own words only', async (type, status) => {
    receiver.respond((_req, res) => res.writeHead(status, { 'content-type': type }).end(page));
    const error = await failedTest(ids.generic);
    expect(error.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+ [^.]*\\b${status}\\b`)); // the status, first
    for (const piece of ['Router admin', '<h1>', 'session=', '8c1f0e2d9b7a', 'Welcome']) expect(JSON.stringify(error)).not.toContain(piece);
  });

  it('says the reason a webhook server gives in its JSON error, stripped of markup and control characters, in one short line', async () => {
    receiver.respond((_req, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          code: 40009,
          http: 400,
          error: 'invalid request: <b>topic</b> invalid\u0007\n\tplease check',
          link: 'https://ntfy.sh/docs/publish/',
        }),
      ),
    );
    const error = await failedTest(ids.ntfy);
    expect(error.message).toMatch(
      /^127\.0\.0\.1:\d+ refused the webhook \(400\)\. It said: "invalid request: topic invalid please check"\.$/,
    );

    receiver.respond((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: 'Unauthorized',
          errorCode: 401,
          errorDescription: 'you need to provide a valid access token or user credentials to access this api',
        }),
      ),
    );
    expect((await failedTest(ids.gotify)).message).toMatch(
      /refused the webhook's token \(401\)\. It said: "you need to provide a valid access token or user credentials to access this api"\.$/,
    );

    receiver.respond((_req, res) =>
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'y'.repeat(5000) })),
    );
    const long = (await failedTest(ids.generic)).message;
    expect(long.length).toBeLessThan(300);
    expect(long).toContain('…');
  });
});

describe('a server that echoes the token back', () => {
  const echo = (encode: (header: string) => string) => (req: { headers: Record<string, unknown> }, res: ServerResponse) => {
    const header = String(req.headers.authorization ?? req.headers['x-gotify-key'] ?? '');
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: `the credentials ${encode(header)} are not valid here`, message: encode(header) }));
  };

  it.each([
    ['base64', (h: string) => Buffer.from(h).toString('base64')],
    ['base64url', (h: string) => Buffer.from(h).toString('base64url')],
    ['as is', (h: string) => h],
    ['hex', (h: string) => Buffer.from(h).toString('hex')],
    ['URL-encoded base64', (h: string) => encodeURIComponent(Buffer.from(h).toString('base64'))],
  ])('in %s: none of it in the error the renderer gets or in the log', async (_name, encode) => {
    receiver.respond(echo(encode));
    for (const id of Object.values(ids)) {
      const error = await failedTest(id);
      expect(error).toMatchObject({ kind: 'permanent', message: expect.stringMatching(/refused the webhook's token \(401\)/) });
      noSentinelIn(JSON.stringify(error));
    }
    noSentinelIn(logger.lines.join('\n'));
  });

  it('nor in an event, the history or any file of the data folder, when a raised alert is posted to it', async () => {
    receiver.respond(echo((h) => Buffer.from(h).toString('base64')));
    const raisedAt = Date.now();
    const alert = {
      id: 1,
      rule: 'node-unreachable' as const,
      clusterId: 'c1',
      target: 'node:pve1',
      label: 'node pve1',
      raisedAt,
      reason: 'Node pve1 does not answer.',
      hint: 'Power it on.',
    };
    app.alerts.delivery.deliver({ kind: 'raised', alert });
    await app.alerts.delivery.idle();
    expect(receiver.received).toHaveLength(3); // one post per target: a 401 is not tried again
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(join(f.parentPath, f.name)).toString('latin1'));
    expect(files.length).toBeGreaterThan(1); // the targets file and the history at least
    noSentinelIn([...events, ...logger.lines, ...files].join('\n'));
    expect(logger.lines.filter((l) => l.includes('alert webhook failed'))).toHaveLength(3);
  });
});
