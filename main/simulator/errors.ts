/**
 * Error answers in Proxmox's wire form (F1): the text is both the reason
 * phrase and the body's `message` with a trailing newline; a 400 adds a
 * per-field `errors` map; 401, 595 and 596 carry an empty body.
 */
import { bare, fieldError, message, type TextName } from './texts';

export class PveHttpError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly body: string,
  ) {
    super(reason);
    this.name = 'PveHttpError';
  }
}

export function pveError(status: number, text: string, errors?: Record<string, string>): PveHttpError {
  const body: Record<string, unknown> = { data: null, message: `${text}\n` };
  if (errors) body.errors = errors;
  return new PveHttpError(status, text, JSON.stringify(body));
}

/** A 500-style answer whose text is a fixture's, with captured values replaced. */
export function textError(name: TextName, status: number, replacements: Record<string, string | number> = {}): PveHttpError {
  return pveError(status, message(name, replacements), undefined);
}

/** `400 Parameter verification failed.` with the given per-field texts. */
export function paramError(errors: Record<string, string>): PveHttpError {
  return pveError(400, message('badParam'), errors);
}

/** One field error taken from a 400 fixture, its captured values replaced. */
export function fieldText(name: TextName, replacements: Record<string, string | number> = {}): string {
  let text = fieldError(name).text;
  for (const [captured, wanted] of Object.entries(replacements)) text = text.split(captured).join(String(wanted));
  return text;
}

export function bareError(name: TextName): PveHttpError {
  const { status, reason } = bare(name);
  return new PveHttpError(status, reason, '');
}

export const vmMissing = (node: string, vmid: number) => textError('configMissing', 500, { 'pv1-1': node, '199999': vmid });
export const vmLocked = (lock: string) => textError('locked', 500, { '(clone)': `(${lock})` });
export const forbidden = (path: string, privilege: string) =>
  textError('forbidden', 403, { '/nodes/pv1-1, Sys.Syslog': `${path}, ${privilege}` });
export const noSuchStorage = () => paramError({ storage: fieldText('noSuchStorage') });
