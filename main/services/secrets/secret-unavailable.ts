/**
 * The token secret a request needs is not held: a session-only secret after
 * a restart, an imported profile, or a keyring that can no longer decrypt.
 * Permanent (retrying cannot help) and worded so the admin knows the fix;
 * it carries no secret.
 */
import { ClassifiedError } from '../../core';

export class SecretUnavailableError extends ClassifiedError {
  override readonly name = 'SecretUnavailableError';
  readonly failureClass = 'permanent';
  readonly kind = 'permanent';
  readonly hint = "Open the cluster's settings and enter the token secret again.";
}
