/**
 * Webhook delivery against real HTTP receivers on 127.0.0.1: the exact
 * request of each format (ntfy, Gotify, generic JSON), the token in the one
 * header it belongs to and nowhere else (not in the URL, the body, another
 * header, the targets file, the channel answers or a log line), the retry
 * of a transient failure, a refusal classified with its hint, and Send test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createAlertDelivery, type AlertDelivery } from '../../../../main/services/alerts/delivery';
import { WEBHOOK_TARGETS_FILE, createWebhookTargetStore, type WebhookTargetStore } from '../../../../main/services/alerts/webhook-targets';
import { defaultSendPolicy } from '../../../../main/services/alerts/webhook-sender';
import type { AlertRecord } from '../../../../main/services/history/types';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { createRecordingNotifier } from '../../../../main/ports/notifier';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../../../support/webhook-receiver';

const SENTINEL = 'tk_SENTINEL-9f8e7d6c5b4a3921';
const RAISED_AT = Date.UTC(2026, 10, 30, 12, 0, 0);
const SENT_AT = Date.UTC(2026, 10, 30, 12, 0, 5);

const alert: AlertRecord = {
  id: 7,
  rule: 'egress-failing',
  clusterId: 'demo',
  target: 'vm:150003',
  label: 'proxy proxy-tinyproxy (150003)',
  raisedAt: RAISED_AT,
  reason: 'The egress check through proxy proxy-tinyproxy (150003) failed 2 times in a row: the proxy answered 502.',
  hint: 'Check the VM.',
};

let dataDir: string;
let receiver: WebhookReceiver;
let logger: ReturnType<typeof createMemoryLogger>;
let targets: WebhookTargetStore;
let delivery: AlertDelivery;
let agent: Agent;
const notifier = createRecordingNotifier();
const ids: Record<'ntfy' | 'gotify' | 'generic', string> = { ntfy: '', gotify: '', generic: '' };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'alerts-webhooks-'));
  receiver = await startWebhookReceiver();
  logger = createMemoryLogger();
  targets = createWebhookTargetStore({ dataDir, vault: createMemoryVault(), logger });
  agent = new Agent();
  delivery = createAlertDelivery({
    notifier,
    targets,
    dispatcher: agent,
    clusterName: () => 'Demo cluster (simulated)',
    logger,
    now: () => SENT_AT,
    policy: { ...defaultSendPolicy, timeoutMs: 5_000, sleep: async () => undefined },
  });
  ids.ntfy = (
    await targets.save({
      name: 'phone',
      format: 'ntfy',
      url: `${receiver.url}/ntfy/`,
      topic: 'homelab-alerts',
      enabled: true,
      secret: SENTINEL,
    })
  ).id;
  ids.gotify = (
    await targets.save({ name: 'gotify', format: 'gotify', url: `${receiver.url}/gotify`, enabled: true, secret: SENTINEL })
  ).id;
  ids.generic = (
    await targets.save({ name: 'n8n', format: 'generic', url: `${receiver.url}/hook?src=egress`, enabled: true, secret: SENTINEL })
  ).id;
});
afterAll(async () => {
  await agent.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer(200);
});

const byPath = (prefix: string) => receiver.received.filter((r) => r.path.startsWith(prefix));

/** The sentinel appears in exactly the named header, nowhere else in the request. */
function secretOnlyIn(req: ReceivedRequest, header: string, value: string) {
  expect(req.headers[header]).toBe(value);
  expect(req.path).not.toContain(SENTINEL);
  expect(req.body).not.toContain(SENTINEL);
  for (const [name, v] of Object.entries(req.headers)) if (name !== header) expect(String(v)).not.toContain(SENTINEL);
}

describe('webhook formats', () => {
  it('posts a raised alert once to each target, in its format, with the token only in its header', async () => {
    delivery.deliver({ kind: 'raised', alert });
    await delivery.idle();
    expect(receiver.received).toHaveLength(3);

    const [ntfy] = byPath('/ntfy/');
    expect(ntfy).toMatchObject({ method: 'POST', path: '/ntfy/homelab-alerts' });
    expect(ntfy!.headers).toMatchObject({
      title: 'Alert: Egress failing, proxy proxy-tinyproxy (150003)',
      priority: '4',
      tags: 'warning',
      'content-type': 'text/plain; charset=utf-8',
    });
    expect(ntfy!.body).toBe(
      `${alert.reason}\nWhat to do: Check the VM.\nCluster Demo cluster (simulated), raised at 2026-11-30T12:00:00.000Z.`,
    );
    secretOnlyIn(ntfy!, 'authorization', `Bearer ${SENTINEL}`);

    const [gotify] = byPath('/gotify');
    expect(gotify).toMatchObject({ method: 'POST', path: '/gotify/message' });
    expect(JSON.parse(gotify!.body)).toEqual({
      title: 'Alert: Egress failing, proxy proxy-tinyproxy (150003)',
      message: ntfy!.body,
      priority: 8,
    });
    secretOnlyIn(gotify!, 'x-gotify-key', SENTINEL);

    const [generic] = byPath('/hook');
    expect(generic).toMatchObject({ method: 'POST', path: '/hook?src=egress' });
    expect(generic!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(generic!.body)).toEqual({
      source: 'egress-desk',
      event: 'raised',
      alertId: 7,
      rule: 'egress-failing',
      ruleTitle: 'Egress failing',
      clusterId: 'demo',
      cluster: 'Demo cluster (simulated)',
      target: 'vm:150003',
      label: 'proxy proxy-tinyproxy (150003)',
      reason: alert.reason,
      hint: 'Check the VM.',
      raisedAt: '2026-11-30T12:00:00.000Z',
      resolvedAt: null,
      sentAt: '2026-11-30T12:00:05.000Z',
    });
    secretOnlyIn(generic!, 'authorization', `Bearer ${SENTINEL}`);

    // The desktop notification: one, with the reason.
    expect(notifier.notes.at(-1)).toMatchObject({ title: 'Alert: Egress failing, proxy proxy-tinyproxy (150003)', tone: 'bad' });
  });

  it('posts a resolve after its raise, in each format', async () => {
    const resolvedAt = RAISED_AT + 600_000;
    delivery.deliver({ kind: 'resolved', alert: { ...alert, resolvedAt } });
    await delivery.idle();
    expect(byPath('/ntfy/')[0]!.headers).toMatchObject({
      title: 'Resolved: Egress failing, proxy proxy-tinyproxy (150003)',
      priority: '3',
      tags: 'white_check_mark',
    });
    expect(JSON.parse(byPath('/gotify')[0]!.body)).toMatchObject({
      priority: 3,
      message: expect.stringMatching(/^Resolved at 2026-11-30T12:10:00.000Z/),
    });
    expect(JSON.parse(byPath('/hook')[0]!.body)).toMatchObject({
      event: 'resolved',
      resolvedAt: '2026-11-30T12:10:00.000Z',
      raisedAt: '2026-11-30T12:00:00.000Z',
    });
  });

  it('keeps the token sealed: not in the targets file, not in what the renderer gets, not in a log line', () => {
    const file = readFileSync(join(dataDir, WEBHOOK_TARGETS_FILE), 'utf8');
    expect(file).not.toContain(SENTINEL);
    expect(file).not.toContain(Buffer.from(SENTINEL).toString('base64'));
    expect(JSON.parse(file).targets[0].secret).toMatchObject({ storage: 'keyring', encoding: 'vault' });
    expect(JSON.stringify(targets.list())).not.toContain(SENTINEL);
    expect(targets.list().every((t) => t.hasSecret)).toBe(true);
    expect(logger.lines.join('\n')).not.toContain(SENTINEL);
  });
});

describe('delivery failures', () => {
  it('tries a transient failure again with backoff, and a refusal not at all, saying why with a hint', async () => {
    receiver.answer(503, 200);
    const retried = await delivery.test(ids.generic);
    expect(retried).toEqual({ status: 200, attempts: 2 });
    expect(JSON.parse(receiver.received.at(-1)!.body)).toMatchObject({ event: 'test', reason: expect.stringContaining('test') });

    receiver.received.length = 0;
    receiver.answer(401);
    const refused = await delivery.test(ids.gotify).catch((e: unknown) => e);
    expect(receiver.received).toHaveLength(1);
    expect(refused).toMatchObject({
      kind: 'permanent',
      message: expect.stringMatching(/refused the webhook's token \(401\)/),
      hint: expect.stringMatching(/Gotify application token/),
    });
    expect(JSON.stringify(refused) + String((refused as Error).message)).not.toContain(SENTINEL);

    receiver.answer(500);
    const failing = await delivery.test(ids.ntfy).catch((e: unknown) => e);
    expect(failing).toMatchObject({ kind: 'transient' });
    expect(logger.lines.join('\n')).not.toContain(SENTINEL);
  });

  it('stops retrying when the app closes: a long backoff does not hold the quit', async () => {
    receiver.answer(503);
    const closing = createAlertDelivery({
      notifier,
      targets,
      dispatcher: agent,
      clusterName: () => 'Home lab',
      logger,
      policy: { ...defaultSendPolicy, sleep: () => new Promise((resolve) => setTimeout(resolve, 600_000).unref()) },
    });
    for (const id of [ids.ntfy, ids.gotify]) await targets.save({ ...(await targets.resolve(id)).target, enabled: false });
    closing.deliver({ kind: 'raised', alert });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1));
    await closing.close(); // would wait out the 10-minute backoff if the close did not stop it
    expect(receiver.received).toHaveLength(1);
    closing.deliver({ kind: 'resolved', alert: { ...alert, resolvedAt: RAISED_AT + 1 } });
    await closing.idle();
    expect(receiver.received).toHaveLength(1);
    for (const id of [ids.ntfy, ids.gotify]) await targets.save({ ...(await targets.resolve(id)).target, enabled: true });
  });

  it('says when nothing answers, without blocking the alert', async () => {
    const dead = await targets.save({ name: 'dead', format: 'generic', url: 'http://127.0.0.1:9/hook', enabled: false });
    const outcome = await delivery.test(dead.id).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ kind: 'transient', message: expect.stringMatching(/could not reach 127\.0\.0\.1:9/) });
    targets.remove(dead.id);
  });
});
