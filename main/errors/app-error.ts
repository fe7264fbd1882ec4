/**
 * The error type main's services throw when they know what went wrong. The
 * router turns it (or anything carrying the same fields) into the contract's
 * AppErrorValue; anything else becomes a generic transient error whose detail
 * stays in the log.
 */
import { errorKinds, type AppErrorValue, type ErrorKind } from '../../shared/errors';
import { redactSecrets } from '../log/secrets';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly hint: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

interface ErrorLike {
  kind: ErrorKind;
  message: string;
  hint?: string;
  field?: string;
}

function isErrorLike(e: unknown): e is ErrorLike {
  if (typeof e !== 'object' || e === null) return false;
  const r = e as Record<string, unknown>;
  return typeof r.message === 'string' && (errorKinds as readonly unknown[]).includes(r.kind);
}

const defaultHints: Record<ErrorKind, string> = {
  permanent: 'Change the setting or the request named in the message, then try again.',
  transient: 'Try again in a moment; if it keeps failing, check that the cluster is reachable.',
  'not-found': 'Refresh the view: the item is gone.',
  'invalid-input': 'Correct the highlighted field and try again.',
};

/** Converts anything thrown into the value that crosses IPC. Never includes a stack. */
export function toAppErrorValue(e: unknown): AppErrorValue | undefined {
  if (!isErrorLike(e)) return undefined;
  const value: AppErrorValue = {
    kind: e.kind,
    message: redactSecrets(e.message),
    hint: redactSecrets(e.hint && e.hint.length > 0 ? e.hint : defaultHints[e.kind]),
  };
  if (e.field !== undefined) value.field = e.field;
  return value;
}

export const internalErrorValue: AppErrorValue = {
  kind: 'transient',
  message: 'Egress Desk hit an internal error while handling this request.',
  hint: 'Try again. If it happens again, the log file has the details; please report it.',
};
