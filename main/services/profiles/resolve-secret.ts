/**
 * What a save does with the token secret: seal a new one where the admin
 * chose; move the held one when only the storage changed; keep it when
 * nothing changed; drop it for a token file. A new token ID needs its own
 * secret, so an old secret is never sent with another token's ID; and a new
 * server (scheme, host or port) needs it given again, so a held secret is
 * never sent to a host other than the one it was saved for.
 */
import type { ProfileFields } from '../../../shared/domain/profile';
import { AppError } from '../../errors/app-error';
import type { SealedSecret, SecretKeeper } from '../secrets/secret-keeper';
import { refuseMovedSecret } from '../secrets/secret-origin';

export interface SecretChange {
  id: string;
  profile: ProfileFields;
  existing: ProfileFields | undefined;
  sealed: SealedSecret | undefined;
  secret: string | undefined;
}

function secretNeeded(): AppError {
  return new AppError(
    'invalid-input',
    'Enter the token secret for this token ID.',
    'Paste the secret Proxmox showed when the token was made.',
    'secret',
  );
}

export async function resolveSecret(keeper: SecretKeeper, change: SecretChange): Promise<SealedSecret | undefined> {
  const token = change.profile.token;
  if (token.secretStorage === 'file') {
    keeper.forget(change.id);
    return undefined;
  }
  if (change.secret !== undefined) return keeper.seal(change.id, change.secret, token.secretStorage);

  const before = change.existing?.token;
  if (!before || before.secretStorage === 'file' || before.tokenId !== token.tokenId) throw secretNeeded();
  // A held secret stays with the server it was saved for: another scheme, host or port needs it given again.
  refuseMovedSecret(change.existing!.url, change.profile.url, 'token secret');
  const held = await keeper.current(change.id, change.sealed);
  if (held === undefined) {
    // Nothing held (a session secret after a restart, an imported profile): the profile is saved and still needs its secret.
    return undefined;
  }
  if (before.secretStorage === token.secretStorage) return change.sealed;
  return keeper.seal(change.id, held, token.secretStorage);
}
