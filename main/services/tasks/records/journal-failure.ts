/** The journal's failures, in the words the user sees. */
import { AppError } from '../../../errors/app-error';

/** Why the journal could not be written, as the error a task fails with and a request is refused with. */
export function journalFailure(e: unknown, dir: string): AppError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new AppError(
      'transient',
      'Egress Desk could not record progress: disk full.',
      `Free space in ${dir} (the disk it is on is full), then try again.`,
    );
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return new AppError(
      'permanent',
      'Egress Desk could not record progress: the data folder is read-only.',
      `Make ${dir} writable again (it, or the disk it is on, is read-only), then try again.`,
    );
  return new AppError(
    'transient',
    `Egress Desk could not record progress: ${code ?? (e instanceof Error ? e.message : String(e))}.`,
    `Check ${dir} and the disk it is on, then try again.`,
  );
}

/** A failure's errno code, or its message: what a log line or a notice names as the reason. */
export function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (e instanceof Error ? e.message : String(e));
}
