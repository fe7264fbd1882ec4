/**
 * The small interface behind which secrets are encrypted at rest. The
 * Electron shell provides one over `safeStorage` (main/electron/safe-storage.ts);
 * plain Node (browser mode, tests) uses aes-vault.ts. Nothing else in main
 * knows which one it has.
 */
import type { VaultBackend } from '../../../shared/domain/profile';

export type { VaultBackend };

export interface SecretVault {
  /** What protects the secrets on this machine; the UI shows `detail` as is. */
  backend(): Promise<VaultBackend>;
  /** Base64 of the encrypted text. */
  encrypt(plain: string): Promise<string>;
  decrypt(cipher: string): Promise<string>;
}
