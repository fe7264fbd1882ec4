/**
 * Main's check of the user-data a request carries: the one rule the dialogs
 * apply (shared/domain/user-data.ts userDataProblem), so a request sent
 * around the dialog (a script, another client) is refused in the same
 * words, before any task exists and before any request to Proxmox.
 */
import { userDataProblem } from '../../../../shared/domain/user-data';
import { AppError } from '../../../errors/app-error';

/** Throws when `text` is user-data cloud-init would ignore or cannot parse; `whose` names the proxy it is for. */
export function refuseBadUserData(text: string | undefined, nothing: string, whose?: string): void {
  if (text === undefined) return;
  const problem = userDataProblem(text);
  if (problem)
    throw new AppError(
      'invalid-input',
      `${whose ? `${whose}: ` : ''}${problem} ${nothing}`,
      'Correct the user-data (start it with #cloud-config, or choose a preset), then send it again.',
      'cloudInit',
    );
}
