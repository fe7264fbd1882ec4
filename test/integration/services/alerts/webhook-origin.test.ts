/**
 * A webhook's stored token is bound to the origin (scheme, host, port) it was
 * saved for, by the same rule as a cluster's token secret
 * (shared/domain/secret-origin.ts): `alerts.saveTarget` moving a target to
 * another origin without the token again is refused in words, as invalid
 * input on the token field, and Send test never hands the sentinel to the
 * other server. Two real loopback receivers stand for A and B.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookTarget } from '../../../../shared/channels/alerts';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { secretForms } from '../../../../main/log/secrets';
import { defaultSendPolicy } from '../../../../main/services/alerts/webhook-sender';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { startWebhookReceiver, type WebhookReceiver } from '../../../support/webhook-receiver';
import { tempDir } from '../profiles/helpers';

const SENTINEL = 'tk_SENTINEL-webhook-origin-7a6b5c4d3e';
const ctx = { signal: new AbortController().signal, transport: 'test' };
const logger = createMemoryLogger('debug');
let a: WebhookReceiver;
let b: WebhookReceiver;
let app: ComposedApp;

const call = (channel: string, input: unknown) => app.router.dispatch(channel, input, ctx);
const seen = (r: WebhookReceiver) => JSON.stringify(r.received);
const hostOf = (url: string) => new URL(url).host;

async function saved(input: Record<string, unknown>): Promise<WebhookTarget> {
  const answer = await call('alerts.saveTarget', input);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as WebhookTarget;
}

beforeAll(async () => {
  a = await startWebhookReceiver();
  b = await startWebhookReceiver();
  app = composeApp({
    mode: 'browser',
    version: '0',
    runtime: nodeRuntime(),
    logger,
    dataDir: await tempDir(),
    demo: 'off',
    secretVault: createMemoryVault(),
    alerts: { sendPolicy: { ...defaultSendPolicy, timeoutMs: 5_000, sleep: async () => undefined } },
  });
});
afterAll(async () => {
  await app?.dispose();
  await a?.close();
  await b?.close();
});
beforeEach(() => {
  a.received.length = 0;
  b.received.length = 0;
});

describe.each(['generic', 'ntfy', 'gotify'] as const)('a %s target moved to another server', (format) => {
  const base = (url: string) => ({
    name: `hook-${format}`,
    format,
    url: `${url}/${format}`,
    ...(format === 'ntfy' ? { topic: 'lab' } : {}),
    enabled: true,
  });

  it('is refused without the token again, and Send test still goes to the first server only', async () => {
    const target = await saved({ ...base(a.url), secret: SENTINEL });
    const moved = await call('alerts.saveTarget', { ...base(b.url), id: target.id });
    expect(moved).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'secret',
        message: `The server address changed: enter the token again for ${hostOf(b.url)}.`,
        hint: `A saved token is only sent to the server it was saved for; give it again to use it with ${hostOf(b.url)}.`,
      },
    });

    const test = await call('alerts.testTarget', { id: target.id });
    expect(test.ok).toBe(true);
    expect(b.received).toEqual([]);
    expect(a.received).toHaveLength(1);
    for (const form of secretForms(SENTINEL)) expect(seen(b)).not.toContain(form);
    expect(JSON.stringify(await call('alerts.targets', {}))).toContain(`${a.url}/${format}`); // the target stays where it was
  });

  it('moving the held token to another storage does not carry it along either', async () => {
    const target = await saved({ ...base(a.url), secret: SENTINEL });
    const moved = await call('alerts.saveTarget', { ...base(b.url), id: target.id, secretStorage: 'keyring' });
    expect(moved).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'secret' } });
  });

  it('is saved when the token is given again (it goes to the new server) or dropped', async () => {
    const target = await saved({ ...base(a.url), secret: SENTINEL });
    await saved({ ...base(b.url), id: target.id, secret: SENTINEL });
    expect((await call('alerts.testTarget', { id: target.id })).ok).toBe(true);
    expect(b.received).toHaveLength(1);
    expect(a.received).toEqual([]);

    if (format === 'gotify') return; // Gotify cannot do without its token
    const other = await saved({ ...base(a.url), secret: SENTINEL });
    const dropped = await saved({ ...base(b.url), id: other.id, clearSecret: true });
    expect(dropped.hasSecret).toBe(false);
  });

  it('keeps the token on the same server: another path, a trailing slash or the host in capitals is no move', async () => {
    const target = await saved({ ...base(a.url), secret: SENTINEL });
    const sameOrigin = a.url.replace('http://', 'HTTP://') + `/other/${format}/`;
    const kept = await saved({ ...base(a.url), url: sameOrigin, id: target.id });
    expect(kept.hasSecret).toBe(true);
  });
});

describe('what the renderer and the log get', () => {
  it('never the sentinel, in any form', async () => {
    const everything = JSON.stringify(await call('alerts.targets', {})) + logger.lines.join('\n');
    for (const form of secretForms(SENTINEL)) expect(everything).not.toContain(form);
  });
});
