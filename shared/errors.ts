import { z } from 'zod';

/**
 * How a failure should be handled by whoever sees it:
 * - permanent: retrying the same thing will fail the same way; the admin must change something.
 * - transient: retrying later may succeed (network, lock, task still running).
 * - not-found: the thing asked about does not exist (any more).
 * - invalid-input: the request itself was malformed; nothing was attempted.
 */
export const errorKinds = ['permanent', 'transient', 'not-found', 'invalid-input'] as const;
export const ErrorKind = z.enum(errorKinds);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** The one shape in which an error crosses the IPC boundary. */
export const AppErrorValue = z
  .object({
    kind: ErrorKind,
    /** What happened, in plain words. */
    message: z.string(),
    /** What to do about it. */
    hint: z.string(),
    /** For invalid-input: the dotted path of the first offending field. */
    field: z.string().optional(),
  })
  .strict();
export type AppErrorValue = z.infer<typeof AppErrorValue>;

/** Every request answer is an envelope: only plain data survives IPC, never a thrown Error. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: AppErrorValue };

export function envelopeSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }).strict(),
    z.object({ ok: z.literal(false), error: AppErrorValue }).strict(),
  ]);
}
