/**
 * The profiles area as the composition root sees it: open the file (a
 * broken one is kept aside, never fatal), pick the vault, build the service.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Budgets } from '../../core';
import type { Logger } from '../../log/logger';
import type { MutableClusterDirectory } from '../clusters/cluster';
import { createKeyFileVault, createMemoryVault, keyFileBackend } from '../secrets/aes-vault';
import type { SecretVault, VaultBackend } from '../secrets/vault';
import { emptyDocument } from './document';
import { memoryDocumentStore, openConfDocumentStore, type DocumentStoreOpener } from './document-store';
import { openProfileDocument, startEmpty, type OpenedDocument } from './open-document';
import { makeDataDir, mkdirCause, unwritableCode } from '../../files/unwritable';
import { ProfileService } from './service';

export { ProfileService } from './service';
export type { DocumentStore, DocumentStoreOpener } from './document-store';
export { profilesHandlers } from './handlers';

export interface ProfilesSetup {
  logger: Logger;
  /** Where the profile file lives; absent keeps everything in memory (tests of other areas). */
  dataDir?: string;
  /** The Electron shell passes safeStorage's vault; plain Node uses a key file in dataDir. */
  vault?: SecretVault;
  /** The Electron shell passes electron-store; plain Node uses conf. */
  openStore?: DocumentStoreOpener;
  directory?: MutableClusterDirectory;
  budgets?: Partial<Budgets>;
}

export const VAULT_KEY_FILE = 'vault.key';

/** Synchronous so the composition root stays synchronous; the key-file vault loads its key on first use. */
export function createProfileService(setup: ProfilesSetup): ProfileService {
  const { logger, dataDir } = setup;
  const opened = dataDir
    ? openInDataDir(setup.openStore ?? openConfDocumentStore, dataDir, logger)
    : { store: memoryDocumentStore(), doc: emptyDocument() };
  const vault =
    setup.vault ??
    (dataDir
      ? // The key file is made at the first secret saved: the folder too, when the app started without it.
        lazyVault(
          () => (makeDataDir(dataDir), createKeyFileVault(join(dataDir, VAULT_KEY_FILE))),
          keyFileBackend(join(dataDir, VAULT_KEY_FILE)),
        )
      : createMemoryVault({ kind: 'key_file', protected: false, detail: 'No data folder: secrets are held in memory only.' }));
  return new ProfileService({ opened, vault, logger, directory: setup.directory, budgets: setup.budgets, ...(dataDir ? { dataDir } : {}) });
}

/** A data folder that cannot be made (a full disk, a read-only parent) starts the app empty, saving later (unwritable.ts). */
function openInDataDir(opener: DocumentStoreOpener, dataDir: string, logger: Logger): OpenedDocument {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    const code = unwritableCode(mkdirCause(dataDir, err));
    if (!code) throw err;
    logger.warn('data folder cannot be made; starting empty, saving later', { dataDir, code });
    return startEmpty(opener, dataDir, code);
  }
  return openProfileDocument(opener, dataDir, logger);
}

/** The key is read (or made) at its first use; saying what protects secrets needs no key (a full disk can still list). */
function lazyVault(load: () => Promise<SecretVault>, backend: VaultBackend): SecretVault {
  let vault: Promise<SecretVault> | undefined;
  // A load that failed (no space for the key file yet) is tried again at the next use.
  const get = () => (vault ??= load().catch((e: unknown) => ((vault = undefined), Promise.reject(e))));
  return {
    backend: () => Promise.resolve(backend),
    encrypt: async (plain) => (await get()).encrypt(plain),
    decrypt: async (cipher) => (await get()).decrypt(cipher),
  };
}
