/**
 * Holds each profile's token secret where the admin chose: sealed by the
 * vault (keyring, or knowingly unprotected), or in memory for this session
 * only. Decrypted secrets are kept in memory for the requests that need them
 * and registered with the log redactor the moment they are known.
 */
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { registerSecret } from '../../log/secrets';
import { SecretUnavailableError } from './secret-unavailable';
import type { SecretVault } from './vault';

/** A secret as it rests in the profile file: never in clear text. */
export const SealedSecret = z
  .object({
    storage: z.enum(['keyring', 'plaintext']),
    /** `vault`: encrypted by the vault; `base64`: only encoded, when no vault can encrypt and the admin chose `plaintext`. */
    encoding: z.enum(['vault', 'base64']),
    value: z.string().min(1),
  })
  .strict();
export type SealedSecret = z.infer<typeof SealedSecret>;

export type HeldStorage = 'keyring' | 'session' | 'plaintext';

export class SecretKeeper {
  private readonly clear = new Map<string, string>();

  constructor(private readonly vault: SecretVault) {}

  /** Keeps `secret` for the profile; returns what to write to the file (nothing for `session`). */
  async seal(profileId: string, secret: string, storage: HeldStorage): Promise<SealedSecret | undefined> {
    registerSecret(secret);
    const backend = await this.vault.backend();
    if (storage === 'keyring' && !backend.protected) {
      throw new AppError(
        'permanent',
        `This computer offers no protected keyring for the token secret: ${backend.detail}`,
        'Choose "this session only" (you enter the secret again after a restart) or "store unprotected" knowingly, or use a token file.',
        'token.secretStorage',
      );
    }
    if (storage === 'plaintext' && backend.protected) {
      throw new AppError(
        'permanent',
        'This computer has a protected keyring, so the secret is not stored unprotected.',
        'Choose "keyring" for the token secret.',
        'token.secretStorage',
      );
    }
    this.remember(profileId, secret);
    if (storage === 'session') return undefined;
    if (backend.kind === 'unavailable') return { storage, encoding: 'base64', value: Buffer.from(secret, 'utf8').toString('base64') };
    return { storage, encoding: 'vault', value: await this.vault.encrypt(secret) };
  }

  /** The secret for a request; decrypts once, then answers from memory. */
  async reveal(profileId: string, name: string, sealed: SealedSecret | undefined): Promise<string> {
    const held = this.clear.get(profileId);
    if (held !== undefined) return held;
    if (!sealed) {
      throw new SecretUnavailableError(
        `The token secret of cluster "${name}" is not available: it was kept for a session only, or the profile was imported. Enter it again in the cluster's settings.`,
      );
    }
    let secret: string;
    try {
      secret = sealed.encoding === 'base64' ? Buffer.from(sealed.value, 'base64').toString('utf8') : await this.vault.decrypt(sealed.value);
    } catch {
      throw new SecretUnavailableError(
        `The token secret of cluster "${name}" could not be decrypted (the OS keyring or its key changed). Enter it again in the cluster's settings.`,
      );
    }
    this.remember(profileId, secret);
    return secret;
  }

  /** Whether a request could get a secret without asking the admin. */
  holds(profileId: string, sealed: SealedSecret | undefined): boolean {
    return sealed !== undefined || this.clear.has(profileId);
  }

  /** The secret in memory, if any (to move it to another storage without asking again). */
  async current(profileId: string, sealed: SealedSecret | undefined): Promise<string | undefined> {
    if (!this.holds(profileId, sealed)) return undefined;
    return this.reveal(profileId, profileId, sealed);
  }

  /** Drops the secret from memory; it stays registered with the redactor, so an old value never reaches a log either. */
  forget(profileId: string): void {
    this.clear.delete(profileId);
  }

  private remember(profileId: string, secret: string): void {
    registerSecret(secret);
    this.clear.set(profileId, secret);
  }
}
