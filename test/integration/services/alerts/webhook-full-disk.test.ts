/**
 * Saving a webhook target on a data folder that cannot be written says why,
 * in the words and class `settings.set` and `profiles.save` use
 * (main/files/unwritable.ts), never "internal error": the disk is full
 * (transient: free space, save again). Nothing is changed, and
 * once there is room the same save lands on disk. That holds for the
 * targets file and for the vault's key file a first token writes in browser
 * mode. On a real small disk (a tmpfs the test mounts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecretVault } from '../../../../main/services/secrets/vault';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { WEBHOOK_TARGETS_FILE } from '../../../../main/services/alerts/webhook-targets';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { mountSmallDisk, smallDiskMissing, type SmallDisk } from '../../../support/small-disk';

const missing = smallDiskMissing();
if (missing) console.log(`[webhook target on a full disk] skipped: ${missing}`);

const SENTINEL = 'tk_SENTINEL-webhook-full-disk-8d7c6b5a';
const ctx = { signal: new AbortController().signal, transport: 'test' };
let disk: SmallDisk | undefined;
let app: ComposedApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  disk?.unmount();
  disk = undefined;
});

function start(dataDir: string, secretVault?: SecretVault) {
  mkdirSync(dataDir, { recursive: true });
  app = composeApp({
    mode: 'browser',
    version: '0',
    runtime: nodeRuntime(),
    logger: createMemoryLogger(),
    dataDir,
    demo: 'off',
    secretVault,
  });
  const a = app;
  return (channel: string, input: unknown = {}) => a.router.dispatch(channel, input, ctx);
}

const target = { name: 'hook', format: 'generic', url: 'http://127.0.0.1:9/hook', enabled: true };

describe.skipIf(missing !== undefined)('a webhook target saved where the data folder cannot be written', () => {
  it.each([
    ['the targets file', () => createMemoryVault(), {}],
    ["the key file a first token needs (browser mode's vault)", () => undefined, { secret: SENTINEL, secretStorage: 'plaintext' }],
  ])('full disk, %s: says the disk is full (transient), changes nothing; after freeing space it saves', async (_, vault, token) => {
    disk = mountSmallDisk(256);
    const dataDir = join(disk.dir, 'egress-desk');
    const call = start(dataDir, vault());
    disk.fill();

    const refused = await call('alerts.saveTarget', { ...target, ...token });
    expect(refused).toEqual({
      ok: false,
      error: {
        kind: 'transient',
        message: `Could not save: the disk holding ${dataDir} is full. Free space and save again.`,
        hint: `Free space on the disk holding ${dataDir}, then save again; nothing was changed.`,
      },
    });
    expect(await call('alerts.targets')).toMatchObject({ ok: true, value: { targets: [] } });
    expect(JSON.stringify(refused)).not.toContain(SENTINEL);

    disk.free();
    expect(await call('alerts.saveTarget', { ...target, ...token })).toMatchObject({ ok: true });
    expect(existsSync(join(dataDir, WEBHOOK_TARGETS_FILE))).toBe(true);
  });
});
