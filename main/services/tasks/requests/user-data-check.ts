/**
 * Main's check of the user-data a request carries: the one rule the dialogs
 * apply (shared/domain/user-data.ts userDataProblem), so a request sent
 * around the dialog (a script, another client) is refused in the same
 * words, before any task exists and before any request to Proxmox. A
 * cloud-config is then checked against cloud-init's own schema
 * (shared/domain/cloud-init-schema.ts, issue 25 item 1): a wrong type or an
 * unknown key inside a module is refused at its line; an unknown top-level
 * key is only the editor's warning, since cloud-init boots past it.
 */
import { schemaRefusal } from '../../../../shared/domain/cloud-init-schema';
import { userDataKind, userDataProblem } from '../../../../shared/domain/user-data';
import { AppError } from '../../../errors/app-error';

/** Throws when `text` is user-data cloud-init would ignore, cannot parse or would refuse; `whose` names the proxy it is for. */
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
  const refusal = userDataKind(text) === 'cloud-config' ? schemaRefusal(text, 'cloud-config', 'user-data') : undefined;
  if (refusal)
    throw new AppError(
      'invalid-input',
      `${whose ? `${whose}: ` : ''}${refusal} ${nothing}`,
      'Correct that line (the editor marks it), then send it again; cloud-init would stop at it and the proxy would boot without it.',
      'cloudInit',
    );
}
