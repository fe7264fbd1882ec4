/**
 * The meaning checks on top of the shapes: the core's profile schema (an
 * https URL, node names, a VMID range, at least one template...) with every
 * problem listed, and the defaults filled in so the stored profile says
 * exactly what the app will use. A vendor-data that is a cloud-config is
 * checked against cloud-init's own schema (issue 25 item 1), so it is
 * refused at its line when saved, not found broken at a proxy's first boot.
 */
import { schemaRefusal } from '../../../shared/domain/cloud-init-schema';
import type { ProfileFields } from '../../../shared/domain/profile';
import { userDataKind, yamlProblems } from '../../../shared/domain/user-data';
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
  const vendorData = vendorDataProblem(fields.vendorData);
  if (vendorData) return { ok: false, problems: [{ field: 'vendorData', message: vendorData }] };
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

/** A cloud-config vendor-data that does not parse or that cloud-init's schema refuses; other kinds (a script) pass. */
function vendorDataProblem(text: string | undefined): string | undefined {
  if (text === undefined || userDataKind(text) !== 'cloud-config') return undefined;
  const yamlError = yamlProblems(text).find((p) => p.severity === 'error');
  if (yamlError)
    return `The vendor-data is not valid YAML at line ${text.slice(0, yamlError.from).split('\n').length}: ${yamlError.message}`;
  return schemaRefusal(text, 'cloud-config', 'vendor-data');
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
