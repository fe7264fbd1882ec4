/** The answer a store gives when asked to act before it was attached to main: an error, never a silent no-op. */
import type { Envelope } from '../../../shared/errors';

export function notAttached<T>(): Promise<Envelope<T>> {
  return Promise.resolve({
    ok: false,
    error: { kind: 'transient', message: 'The window is not connected to Egress Desk yet.', hint: 'Wait a moment, then try again.' },
  });
}
