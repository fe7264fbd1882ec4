/**
 * The profiles area as the composition root sees it: open the file (a
 * broken one is kept aside, never fatal), pick the vault, build the service.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Budgets } from '../../core';
import type { Logger } from '../../log/logger';
import type { MutableClusterDirectory } from '../clusters/cluster';
import { createKeyFileVault, createMemoryVault } from '../secrets/aes-vault';
import type { SecretVault } from '../secrets/vault';
import { emptyDocument } from './document';
import { memoryDocumentStore, openConfDocumentStore, type DocumentStoreOpener } from './document-store';
import { openProfileDocument } from './open-document';
import { ProfileService } from './profile-service';

export { ProfileService } from './profile-service';
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
    ? (mkdirSync(dataDir, { recursive: true }), openProfileDocument(setup.openStore ?? openConfDocumentStore, dataDir, logger))
    : { store: memoryDocumentStore(), doc: emptyDocument() };
  const vault =
    setup.vault ??
    (dataDir
      ? lazyVault(() => createKeyFileVault(join(dataDir, VAULT_KEY_FILE)))
      : createMemoryVault({ kind: 'key_file', protected: false, detail: 'No data folder: secrets are held in memory only.' }));
  return new ProfileService({ opened, vault, logger, directory: setup.directory, budgets: setup.budgets });
}

function lazyVault(load: () => Promise<SecretVault>): SecretVault {
  let vault: Promise<SecretVault> | undefined;
  const get = () => (vault ??= load());
  return {
    backend: async () => (await get()).backend(),
    encrypt: async (plain) => (await get()).encrypt(plain),
    decrypt: async (cipher) => (await get()).decrypt(cipher),
  };
}
