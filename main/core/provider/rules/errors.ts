/**
 * The one error type the provider throws. Every failure is classified so the
 * UI can say what to do: permanent (an admin must change something),
 * transient (try again later), not-found (the VM is gone) or invalid-input
 * (the request itself cannot be done as asked: refused before any write).
 *
 * Messages are built from our own words and Proxmox's error text only: never
 * from the cloud-init text or a secret. `redactSecrets` is the net under that.
 */
import { redactSecrets } from '../../../log/secrets';

export type ProviderErrorKind = 'permanent' | 'transient' | 'not-found' | 'invalid-input';
export type ProviderOp = 'create' | 'get' | 'delete' | 'list' | 'check' | 'profile' | PowerOp | DayTwoOp;

/** Issue 16's other operations: migrate.ts, reconfigure.ts, recreate.ts, console.ts; issue 23's notes.ts and task-history.ts. */
export type DayTwoOp = 'migrate' | 'reconfigure' | 'recreate' | 'console' | 'notes' | 'task-history' | 'mark' | SnapshotOp;

/** Issue 25's snapshot operations (operations/snapshots.ts). */
export type SnapshotOp = 'snapshot-support' | 'snapshots' | 'snapshot' | 'rollback' | 'delete-snapshot';

/** Day-two power operations (issue 16, power.ts). */
export type PowerOp = 'start' | 'shutdown' | 'stop' | 'reboot';

const defaultHints: Record<ProviderErrorKind, string> = {
  permanent: 'Change the profile, the template or the VM named in the message, then try again.',
  transient: 'Try again in a moment; if it keeps failing, check the cluster and its tasks in the Proxmox UI.',
  'not-found': 'The VM is gone; refresh the view.',
  'invalid-input': 'Change the request named in the message, then try again.',
};

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly hint: string;
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly op?: ProviderOp,
    readonly id?: string,
    hint?: string,
    /** A finer outcome the UI can act on, e.g. `shutdown-timeout` (the guest ignored the shutdown: offer wait longer or stop). */
    readonly code?: string,
  ) {
    super(redactSecrets(message));
    this.hint = redactSecrets(hint ?? defaultHints[kind]);
  }

  /** The same failure, stamped with the operation and ID it happened in. */
  withContext(op: ProviderOp, id?: string): ProviderError {
    return new ProviderError(this.kind, this.message, this.op ?? op, this.id ?? id, this.hint, this.code);
  }
}

export const permanent = (message: string, hint?: string) => new ProviderError('permanent', message, undefined, undefined, hint);
export const transient = (message: string, hint?: string) => new ProviderError('transient', message, undefined, undefined, hint);
export const notFound = (message: string) => new ProviderError('not-found', message);
export const invalidInput = (message: string, hint?: string) => new ProviderError('invalid-input', message, undefined, undefined, hint);

export function isProviderError(e: unknown, kind?: ProviderErrorKind): e is ProviderError {
  return e instanceof ProviderError && (kind === undefined || e.kind === kind);
}
