/**
 * A SecretVault for plain Node: AES-256-GCM with a key held in memory, or in
 * a key file (mode 0600) next to the profiles for browser mode. Neither is a
 * keyring: anyone who can read the user's files can read the key, so both
 * report `protected: false` and the UI asks the admin what to do.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { rm, readFile, writeFile } from 'node:fs/promises';
import type { SecretVault, VaultBackend } from './vault';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `iv | tag | ciphertext`, base64. */
export function createAesVault(key: Uint8Array, backend: VaultBackend): SecretVault {
  if (key.length !== 32) throw new Error('the vault key must be 32 bytes');
  return {
    backend: async () => backend,
    async encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    async decrypt(text) {
      const raw = Buffer.from(text, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** Browser mode: a random key kept in `keyPath` (created 0600 on first use). */
export async function createKeyFileVault(keyPath: string): Promise<SecretVault> {
  let key: Buffer;
  try {
    key = Buffer.from((await readFile(keyPath, 'utf8')).trim(), 'base64');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    key = randomBytes(32);
    try {
      await writeFile(keyPath, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // A disk that filled up mid-write leaves an empty or partial key, which no later start could use: removed, so
      // the next save makes the key again. A key someone else made (EEXIST) is theirs, and stays.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') await rm(keyPath, { force: true });
      throw e;
    }
  }
  return createAesVault(key, keyFileBackend(keyPath));
}

/** What protects secrets with a key file: known without reading (or making) the key. */
export function keyFileBackend(keyPath: string): VaultBackend {
  return {
    kind: 'key_file',
    protected: false,
    detail: `There is no OS keyring in browser mode: secrets would be encrypted with a key kept in ${keyPath}, which anyone who can read your files can use.`,
  };
}

/** Tests and the demo: a random in-memory key, described as the given backend. */
export function createMemoryVault(
  backend: VaultBackend = { kind: 'keyring', protected: true, detail: 'test keyring (in memory)' },
): SecretVault {
  return createAesVault(randomBytes(32), backend);
}
