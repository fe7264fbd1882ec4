/** The plain-Node vault: secrets round-trip, tampering is detected, the browser-mode key file is private and reused. */
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyFileVault, createMemoryVault } from '../../../../main/services/secrets/aes-vault';

const SENTINEL = 'SENTINEL-vault-7c1d-secret';

describe('AES vault', () => {
  it('round-trips a secret, never shows it in the sealed text, and seals it differently each time', async () => {
    const vault = createMemoryVault();
    const a = await vault.encrypt(SENTINEL);
    const b = await vault.encrypt(SENTINEL);
    expect(a).not.toContain(SENTINEL);
    expect(Buffer.from(a, 'base64').toString('latin1')).not.toContain(SENTINEL);
    expect(a).not.toBe(b);
    expect(await vault.decrypt(a)).toBe(SENTINEL);
  });

  it('refuses a sealed text that was changed or sealed with another key', async () => {
    const vault = createMemoryVault();
    const sealed = Buffer.from(await vault.encrypt(SENTINEL), 'base64');
    sealed[sealed.length - 1]! ^= 1;
    await expect(vault.decrypt(sealed.toString('base64'))).rejects.toThrow();
    await expect(createMemoryVault().decrypt(await vault.encrypt(SENTINEL))).rejects.toThrow();
  });

  it('browser mode: keeps its key in a 0600 file, reuses it after a restart, and says it is not protected', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'egress-desk-vault-'));
    const keyPath = join(dir, 'vault.key');
    const first = await createKeyFileVault(keyPath);
    const sealed = await first.encrypt(SENTINEL);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyPath, 'utf8')).not.toContain(SENTINEL);
    const second = await createKeyFileVault(keyPath);
    expect(await second.decrypt(sealed)).toBe(SENTINEL);
    expect(await second.backend()).toMatchObject({ kind: 'key_file', protected: false });
    expect((await second.backend()).detail).toContain(keyPath);
  });
});
