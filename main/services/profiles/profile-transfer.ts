/**
 * Export and import of profiles as a JSON text. An export holds the fields
 * the admin set (never a secret, never an id); an import is validated as a
 * whole, with every problem listed, and is all or nothing.
 */
import { z } from 'zod';
import { ProfileFields } from '../../../shared/domain/profile';
import { AppError } from '../../ipc/app-error';
import { describeIssues } from './document';
import { checkProfile, problemsError } from './validate-profile';

export const EXPORT_FORMAT = 'egress-desk-profiles';

const ExportFile = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(1),
  exportedAt: z.string().optional(),
  profiles: z.array(ProfileFields).max(1000),
});

export function exportText(profiles: ProfileFields[], now = new Date()): { fileName: string; json: string } {
  // Copy field by field through the schema so nothing but profile fields can ever be written.
  const clean = profiles.map((p) => ProfileFields.parse(stripMeta(p)));
  const file = { format: EXPORT_FORMAT, version: 1, exportedAt: now.toISOString(), profiles: clean };
  return { fileName: `egress-desk-profiles-${now.toISOString().slice(0, 10)}.json`, json: JSON.stringify(file, null, 2) + '\n' };
}

function stripMeta(p: ProfileFields & Record<string, unknown>): Record<string, unknown> {
  const { id: _id, createdAt: _c, updatedAt: _u, demo: _d, secretAvailable: _s, ...fields } = p;
  return fields;
}

/** The profiles of an export, checked; throws one invalid-input error listing every problem. */
export function parseImport(json: string): ProfileFields[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    // JSON.parse's message quotes the text around the fault; the text is the admin's file, so it is not repeated.
    throw new AppError('invalid-input', 'The file is not valid JSON.', 'Choose a file made by "Export profiles".', 'json');
  }
  const shape = ExportFile.safeParse(raw);
  if (!shape.success) {
    const problems = describeIssues(shape.error).map((line) => {
      const at = line.indexOf(': ');
      return { field: line.slice(0, at), message: line.slice(at + 2) };
    });
    throw problemsError('The file', problems, '');
  }
  const problems: { field: string; message: string }[] = [];
  const checked: ProfileFields[] = [];
  shape.data.profiles.forEach((profile, index) => {
    const result = checkProfile(profile);
    if (result.ok) checked.push(result.fields);
    else for (const p of result.problems) problems.push({ field: `profiles.${index}.${p.field}`, message: p.message });
  });
  if (problems.length > 0) throw problemsError('The file', problems, '');
  return checked;
}
