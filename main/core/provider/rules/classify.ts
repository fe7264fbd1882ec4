/**
 * Turns anything thrown below an operation into one ProviderError with the
 * class of spec entry 13, the operation, the ID when known and a hint a user
 * can act on. The client already knows the class of its own failures.
 */
import {
  AnswerTooLargeError,
  ApiError,
  STORAGE_PLACEMENT_HINTS,
  ClassifiedError,
  TlsVerificationError,
  TaskFailedError,
  TokenFileError,
  classifyApiFailure,
  storagePlacementRefusal,
  missingPrivilege,
} from '../../pve/errors';
import { ProviderError, type ProviderOp } from './errors';

function hintFor(err: unknown): string | undefined {
  const privilege = missingPrivilege(err);
  if (privilege)
    return `Grant ${privilege.privilege} on ${privilege.path} to the token's user in Proxmox (the user guide's pveum commands, or Settings → Check again lists them), then try again.`;
  const storage = storagePlacementRefusal(err);
  if (storage) return STORAGE_PLACEMENT_HINTS[storage];
  if (err instanceof ApiError && err.status === 401) return 'The API token was refused: check the token id and secret in the profile.';
  if (err instanceof ApiError && err.status === 400) return 'Proxmox refused the request: check the profile fields named in the message.';
  if (err instanceof TlsVerificationError) return "Check the profile's URL and its certificate choice (CA or fingerprint).";
  if (err instanceof TokenFileError) return 'Check the token file named in the message.';
  if (err instanceof AnswerTooLargeError) return err.hint;
  if (err instanceof TaskFailedError && err.hint) return err.hint;
  return undefined;
}

export function toProviderError(op: ProviderOp, err: unknown, id?: string): ProviderError {
  if (err instanceof ProviderError) return err.withContext(op, id);
  const privilege = missingPrivilege(err);
  if (err instanceof ApiError && privilege) {
    // Issue 16: say plainly what the token lacks, where; Proxmox's own words follow.
    const message = `this token cannot do that: it needs ${privilege.privilege} on ${privilege.path} (${err.describe()})`;
    return new ProviderError('permanent', message, op, id, hintFor(err), 'missing-privilege');
  }
  if (err instanceof ApiError) return new ProviderError(classifyApiFailure(op, err), err.describe(), op, id, hintFor(err));
  if (err instanceof ClassifiedError) return new ProviderError(err.failureClass, err.message, op, id, hintFor(err));
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError('transient', `${op} failed: ${message}`, op, id);
}
