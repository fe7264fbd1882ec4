/**
 * Export and import of profiles as a JSON text. An export holds the fields
 * the admin set (never a secret, never an id); an import is validated as a
 * whole, with every problem listed, and is all or nothing.
 */
import { z } from 'zod';
import { MAX_PROFILE_NAME, ProfileFields } from '../../../shared/domain/profile';
import { AppError } from '../../errors/app-error';
import { describeIssues } from './document';
import { checkProfile, problemsError } from './validate-profile';

export const EXPORT_FORMAT = 'egress-desk-profiles';

/** The longest profile name (ProfileFields.name). */
export const MAX_NAME_LENGTH = MAX_PROFILE_NAME;

/** `text` cut to at most `max` UTF-16 units without splitting a character, and without trailing spaces. */
function cut(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out.trimEnd();
}

/**
 * The name an imported profile takes: its own when free, else `<name> (imported)`,
 * `<name> (imported 2)`…, compared case-insensitively with `taken` (lower-cased).
 * The base is cut so the suffix always fits in a name, which makes every
 * candidate distinct; so at most `taken.size + 1` candidates are ever needed,
 * and the search is bounded by that.
 */
export function importedName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const tries = taken.size + 1;
  for (let n = 1; n <= tries; n++) {
    const suffix = ` (imported${n > 1 ? ` ${n}` : ''})`;
    const candidate = cut(name, MAX_NAME_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
  throw new AppError(
    'permanent',
    `There is no free name for the imported cluster "${name}" after ${tries} tries.`,
    'Rename or remove some clusters, then import again.',
    'json',
  );
}

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
