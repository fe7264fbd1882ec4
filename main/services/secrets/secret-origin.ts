/**
 * Main's side of the rule in shared/domain/secret-origin.ts: a save or a run
 * that would send a stored secret to another origin than the one it was saved
 * for is refused, as invalid input on the form's secret field, in the same
 * words for every kind of secret.
 */
import { movedSecretProblem, type SecretName } from '../../../shared/domain/secret-origin';
import { AppError } from '../../errors/app-error';

export function refuseMovedSecret(savedUrl: string, url: string, name: SecretName, field = 'secret'): void {
  const problem = movedSecretProblem(savedUrl, url, name);
  if (problem) throw new AppError('invalid-input', problem.message, problem.hint, field);
}
