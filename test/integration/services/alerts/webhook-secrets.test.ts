/**
 * A webhook token is kept as a cluster's token secret is (docs/security.md:
 * "a secret stored unprotected only when they chose it"): sealed by the
 * keyring where there is one; where there is none, the user's choice
 * between this session only and on disk without real protection, with the
 * keeper's refusals and words. A sentinel token is looked for in the
 * targets file in clear and in base64, in the log and in what the renderer
 * gets; a session token is gone after a restart, the target says so, and
 * an alert skips it instead of posting without the token.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SaveWebhookTargetInput } from '../../../../shared/channels/alerts';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createAlertDelivery } from '../../../../main/services/alerts/delivery';
import { WEBHOOK_TARGETS_FILE, createWebhookTargetStore } from '../../../../main/services/alerts/webhook-targets';
import { defaultSendPolicy } from '../../../../main/services/alerts/webhook-sender';
import type { AlertRecord } from '../../../../main/services/history/types';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import type { SecretVault } from '../../../../main/services/secrets/vault';
import { createRecordingNotifier } from '../../../../main/ports/notifier';
import { startWebhookReceiver, type WebhookReceiver } from '../../../support/webhook-receiver';

const SENTINEL = 'tk_SENTINEL-webhook-secrets-0a1b2c3d4e';
const SENTINEL_BASE64 = Buffer.from(SENTINEL, 'utf8').toString('base64');

const keyring = () => createMemoryVault();
const keyFile = () => createMemoryVault({ kind: 'key_file', protected: false, detail: 'browser mode: a key in the data folder' });
const nothing = () => createMemoryVault({ kind: 'unavailable', protected: false, detail: 'no encryption on this machine' });

const alert: AlertRecord = {
  id: 1,
  rule: 'node-unreachable',
  clusterId: 'demo',
  target: 'node:pv1-3',
  label: 'node pv1-3 of Demo',
  raisedAt: Date.UTC(2026, 10, 30, 12, 0, 0),
  reason: 'Node pv1-3 does not answer.',
  hint: 'Power it on.',
};

let receiver: WebhookReceiver;
const dirs: string[] = [];
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function storeOver(vault: SecretVault, dataDir = mkdtempSync(join(tmpdir(), 'webhook-secrets-'))) {
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  const logger = createMemoryLogger('debug');
  const targets = createWebhookTargetStore({ dataDir, vault, logger });
  const file = () => readFileSync(join(dataDir, WEBHOOK_TARGETS_FILE), 'utf8');
  return { dataDir, logger, targets, file };
}

const input = (extra: Partial<SaveWebhookTargetInput> = {}): SaveWebhookTargetInput => ({
  name: 'hook',
  format: 'generic',
  url: `${receiver.url}/hook`,
  enabled: true,
  secret: SENTINEL,
  ...extra,
});

describe('webhook tokens where the OS has a keyring', () => {
  it('seals the token with the keyring: never in the file in clear or in base64, and read back after a restart', async () => {
    const vault = keyring();
    const first = storeOver(vault);
    const saved = await first.targets.save(input());
    expect(saved).toMatchObject({ hasSecret: true, secretStorage: 'keyring' });
    expect(first.file()).not.toContain(SENTINEL);
    expect(first.file()).not.toContain(SENTINEL_BASE64);
    expect(JSON.parse(first.file()).targets[0].secret).toMatchObject({ storage: 'keyring', encoding: 'vault' });

    const restarted = storeOver(vault, first.dataDir);
    expect((await restarted.targets.resolve(saved.id)).secret).toBe(SENTINEL);
    expect(JSON.stringify(restarted.targets.list())).not.toContain(SENTINEL);
    expect([...first.logger.lines, ...restarted.logger.lines].join('\n')).not.toContain(SENTINEL);
  });

  it('refuses to store it unprotected, with the reason, and writes nothing', async () => {
    const { targets, dataDir } = storeOver(keyring());
    const refused = await targets.save(input({ secretStorage: 'plaintext' })).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      kind: 'permanent',
      field: 'secretStorage',
      message: 'This computer has a protected keyring, so the secret is not stored unprotected.',
    });
    expect(targets.list()).toEqual([]);
    expect(() => readFileSync(join(dataDir, WEBHOOK_TARGETS_FILE))).toThrow();
  });
});

describe('webhook tokens where the OS has no protected keyring', () => {
  it('refuses the keyring (the default) with the reason and the two choices, and keeps nothing', async () => {
    const { targets, dataDir } = storeOver(nothing());
    const refused = await targets.save(input()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'permanent', field: 'secretStorage' });
    const { message, hint } = refused as { message: string; hint: string };
    expect(message).toBe('This computer offers no protected keyring for the token secret: no encryption on this machine');
    expect(hint).toMatch(/this session only.*store unprotected/);
    expect(hint).not.toMatch(/token file/); // a webhook has no token file
    expect(targets.list()).toEqual([]);
    expect(() => readFileSync(join(dataDir, WEBHOOK_TARGETS_FILE))).toThrow();
  });

  it('stores it base64-encoded only after the explicit choice of "on disk without real protection"', async () => {
    const { targets, file, logger } = storeOver(nothing());
    const saved = await targets.save(input({ secretStorage: 'plaintext' }));
    expect(saved).toMatchObject({ hasSecret: true, secretStorage: 'plaintext' });
    expect(file()).not.toContain(SENTINEL);
    expect(JSON.parse(file()).targets[0].secret).toEqual({ storage: 'plaintext', encoding: 'base64', value: SENTINEL_BASE64 });
    expect(logger.lines.join('\n')).not.toContain(SENTINEL);
  });

  it('with a key file, the chosen unprotected storage is still encrypted with that key, never base64', async () => {
    const { targets, file } = storeOver(keyFile());
    await targets.save(input({ secretStorage: 'plaintext' }));
    expect(file()).not.toContain(SENTINEL);
    expect(file()).not.toContain(SENTINEL_BASE64);
    expect(JSON.parse(file()).targets[0].secret).toMatchObject({ storage: 'plaintext', encoding: 'vault' });
  });

  it('"this session only" keeps it in memory: sent now; after a restart the target asks for it and alerts skip it', async () => {
    const vault = keyFile();
    const first = storeOver(vault);
    const saved = await first.targets.save(input({ secretStorage: 'session' }));
    expect(saved).toMatchObject({ hasSecret: true, secretStorage: 'session' });
    expect(saved.secretNeeded).toBeUndefined();
    expect(first.file()).not.toContain(SENTINEL);
    expect(first.file()).not.toContain(SENTINEL_BASE64);
    expect(JSON.parse(first.file()).targets[0]).not.toHaveProperty('secret');
    expect((await first.targets.resolve(saved.id)).secret).toBe(SENTINEL);

    const restarted = storeOver(vault, first.dataDir);
    expect(restarted.targets.list()).toEqual([expect.objectContaining({ hasSecret: false, secretStorage: 'session', secretNeeded: true })]);
    await expect(restarted.targets.resolve(saved.id)).rejects.toMatchObject({
      kind: 'permanent',
      message: expect.stringMatching(/kept for a session only .*restarted: alerts are not sent to it/),
      hint: expect.stringMatching(/Enter the token again in Settings > Alerts/),
    });

    const agent = new Agent();
    const delivery = createAlertDelivery({
      notifier: createRecordingNotifier(),
      targets: restarted.targets,
      dispatcher: agent,
      clusterName: () => 'Demo',
      logger: restarted.logger,
      policy: { ...defaultSendPolicy, sleep: async () => undefined },
    });
    const before = receiver.received.length;
    delivery.deliver({ kind: 'raised', alert });
    await delivery.idle();
    expect(receiver.received.length).toBe(before); // not posted without its token
    expect(restarted.logger.lines.join('\n')).toMatch(/alert webhook skipped.*kept for a session only/);
    await expect(delivery.test(saved.id)).rejects.toMatchObject({ kind: 'permanent', field: 'secret' });

    // Entered again: the target is whole, and the alert goes out with the token.
    await restarted.targets.save({ ...input({ secretStorage: 'session' }), id: saved.id });
    expect(restarted.targets.list()[0]).toMatchObject({ hasSecret: true });
    expect(restarted.targets.list()[0]!.secretNeeded).toBeUndefined();
    delivery.deliver({ kind: 'raised', alert });
    await delivery.idle();
    expect(receiver.received.slice(before).map((r) => r.headers.authorization)).toEqual([`Bearer ${SENTINEL}`]);
    await delivery.close();
    await agent.close();
    expect([...first.logger.lines, ...restarted.logger.lines].join('\n')).not.toContain(SENTINEL);
  });

  it('moves a held token to the chosen storage without typing it again', async () => {
    const { targets, file } = storeOver(nothing());
    const saved = await targets.save(input({ secretStorage: 'session' }));
    expect(JSON.parse(file()).targets[0]).not.toHaveProperty('secret');
    const { secret: _typed, ...noToken } = input({ secretStorage: 'plaintext' });
    await targets.save({ ...noToken, id: saved.id });
    expect(JSON.parse(file()).targets[0].secret).toEqual({ storage: 'plaintext', encoding: 'base64', value: SENTINEL_BASE64 });
  });
});
