/**
 * The profile file's content, validated as a whole with zod on every load:
 * the profiles (with the core's meaning checks on top of the shapes the
 * renderer may send), their sealed secrets, and the app-wide settings.
 */
import { z } from 'zod';
import { defaultSettings, ProfileFields, StoredAppSettings } from '../../../shared/domain/profile';
import { ProfileSchema } from '../../core';
import { SealedSecret } from '../secrets/secret-keeper';
import { toCoreProfile } from './core-profile';

export { DOCUMENT_VERSION } from './migrations';

export const StoredProfile = ProfileFields.extend({
  id: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
}).superRefine((profile, ctx) => {
  const checked = ProfileSchema.safeParse(toCoreProfile(profile));
  if (checked.success) return;
  for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
});
export type StoredProfile = z.infer<typeof StoredProfile>;

export const ProfilesDocument = z
  .object({
    profiles: z.array(StoredProfile).refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'profile ids must be unique'),
    secrets: z.record(z.string(), SealedSecret),
    settings: StoredAppSettings,
  })
  .strict();
export type ProfilesDocument = z.infer<typeof ProfilesDocument>;

export function emptyDocument(): ProfilesDocument {
  return { profiles: [], secrets: {}, settings: structuredClone(defaultSettings) };
}

/** Every problem as `path: message`; zod's messages never quote the values, so no secret can leak through them. */
export function describeIssues(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.');
    return `${path || '(document)'}: ${issue.message}`;
  });
}
