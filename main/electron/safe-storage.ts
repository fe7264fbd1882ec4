/**
 * The SecretVault over Electron's safeStorage, asynchronous API only (the
 * synchronous one is deprecated in Electron 45). On Linux without a keyring
 * Chromium falls back to `basic_text`, which encrypts with a fixed, public
 * password: reported as not protected, so the UI makes the admin choose.
 */
import { safeStorage } from 'electron';
import type { SecretVault, VaultBackend } from '../services/secrets/vault';

async function describeBackend(): Promise<VaultBackend> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) {
    return {
      kind: 'unavailable',
      protected: false,
      detail: 'The operating system offers no way to encrypt secrets for this app.',
    };
  }
  if (process.platform === 'linux') {
    const selected = safeStorage.getSelectedStorageBackend();
    if (selected === 'basic_text' || selected === 'unknown') {
      return {
        kind: 'basic_text',
        protected: false,
        detail:
          'No keyring (GNOME Keyring or KWallet) was found, so secrets could only be encrypted with a fixed password built into Chromium: anyone who can read your files can read them.',
      };
    }
    return { kind: 'keyring', protected: true, detail: `Secrets are encrypted with your desktop keyring (${selected}).` };
  }
  const name = process.platform === 'darwin' ? 'the macOS Keychain' : 'Windows DPAPI';
  return { kind: 'keyring', protected: true, detail: `Secrets are encrypted with ${name}.` };
}

export function createSafeStorageVault(): SecretVault {
  let backend: Promise<VaultBackend> | undefined;
  return {
    backend: () => (backend ??= describeBackend()),
    encrypt: async (plain) => (await safeStorage.encryptStringAsync(plain)).toString('base64'),
    // `shouldReEncrypt` is not acted on: the secret is sealed again whenever the admin saves the profile.
    decrypt: async (cipher) => (await safeStorage.decryptStringAsync(Buffer.from(cipher, 'base64'))).result,
  };
}
