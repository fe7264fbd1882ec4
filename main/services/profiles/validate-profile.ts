/**
 * The meaning checks on top of the shapes: the core's profile schema (an
 * https URL, node names, a VMID range, at least one template...) with every
 * problem listed, and the defaults filled in so the stored profile says
 * exactly what the app will use.
 */
import type { ProfileFields } from '../../../shared/domain/profile';
import { ProfileSchema } from '../../core';
import { AppError } from '../../errors/app-error';
import { toCoreProfile } from './core-profile';

export type ProfileCheck = { ok: true; fields: ProfileFields } | { ok: false; problems: { field: string; message: string }[] };

export function checkProfile(fields: ProfileFields): ProfileCheck {
  const parsed = ProfileSchema.safeParse(toCoreProfile(fields));
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.') || '(profile)', message: i.message })),
    };
  }
  const core = parsed.data;
  return {
    ok: true,
    fields: {
      ...fields,
      vmidRange: core.vmidRange,
      requestTimeoutSeconds: core.requestTimeoutSeconds,
      installGuestAgent: core.installGuestAgent,
    },
  };
}

/** One invalid-input error naming every problem, one per line; `field` points at the first. */
export function problemsError(what: string, problems: { field: string; message: string }[], prefix: string): AppError {
  const lines = problems.map((p) => `${prefix}${p.field}: ${p.message}`);
  return new AppError(
    'invalid-input',
    `${what} has ${problems.length} problem(s):\n${lines.join('\n')}`,
    'Fix every field listed, then try again.',
    problems[0] ? `${prefix}${problems[0].field}` : undefined,
  );
}
