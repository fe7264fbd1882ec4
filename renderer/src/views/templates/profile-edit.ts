/**
 * Editing a saved cluster: take its fields out of the summary, change them,
 * check them with the same schema main uses, and save. The first problem
 * comes back as an invalid-input error naming its field.
 */
import { ProfileFields, type ProfileSummary } from '../../../../shared/domain/profile';
import type { AppErrorValue, Envelope } from '../../../../shared/errors';
import { useProfiles } from '../../stores/profiles';

export function fieldsOf(summary: ProfileSummary): ProfileFields {
  const { id: _id, demo: _demo, secretAvailable: _secret, createdAt: _created, updatedAt: _updated, ...fields } = summary;
  return fields;
}

export function checkFields(fields: ProfileFields): AppErrorValue | undefined {
  const parsed = ProfileFields.safeParse(fields);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  return {
    kind: 'invalid-input',
    message: issue.message,
    hint: 'Correct the value and save again.',
    field: issue.path.join('.'),
  };
}

export async function saveChange(summary: ProfileSummary, change: (f: ProfileFields) => ProfileFields): Promise<Envelope<ProfileSummary>> {
  const fields = change(fieldsOf(summary));
  const problem = checkFields(fields);
  if (problem) return { ok: false, error: problem };
  return useProfiles.getState().save({ id: summary.id, profile: fields });
}
