/**
 * Sealing the cloud-init text a create needs to be resumed: it may hold
 * passwords, so the journal keeps it encrypted, never as clear text. The
 * Node sealer uses AES-256-GCM with a random key in a 0600 file beside the
 * journal, written whole or not at all (a disk filling up must not leave a
 * short key that seals what nothing can open); the Electron shell may pass
 * one backed by the OS keychain.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFileAtomic } from '../../files/data-dir';
import { journalFailure } from './records/journal-failure';

export interface Sealer {
  seal(text: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

const KEY_FILE = 'tasks.key';
const VERSION = 'v1';

function readKey(path: string): Buffer | undefined {
  try {
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function keyIn(dir: string): Buffer {
  const path = join(dir, KEY_FILE);
  const existing = readKey(path);
  if (existing) return existing;
  const key = randomBytes(32);
  try {
    ensurePrivateDir(dir);
    writePrivateFileAtomic(path, Buffer.from(key.toString('base64')), 'wx');
  } catch (e) {
    // Another start wrote it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readKey(path) ?? key;
    throw journalFailure(e, dir);
  }
  return key;
}

/** A sealer whose key lives in `dir` (created 0600 on first use). */
export function createFileKeySealer(dir: string): Sealer {
  let key: Buffer | undefined;
  const getKey = () => (key ??= keyIn(dir));
  return {
    async seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    async open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('sealed text in an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', getKey(), Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
