/** Channels and events about cluster profiles, their secrets, and the app-wide settings. */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents, noInput } from '../define';
import { AppSettings, ProfileFields, ProfileSummary, StoreProblem, TokenSecret, VaultBackend } from '../domain/profile';

const profileId = boundedText(64).min(1);

export const ProfilesList = z
  .object({
    profiles: z.array(ProfileSummary),
    /** Set when the profile file could not be read at start: what was wrong, and where the copy is. */
    storeProblem: StoreProblem.optional(),
    vault: VaultBackend,
  })
  .strict();
export type ProfilesList = z.infer<typeof ProfilesList>;

export const SaveProfileInput = z
  .object({
    /** Absent for a new profile. */
    id: profileId.optional(),
    profile: ProfileFields,
    /** A new secret; absent keeps the one held (refused when the URL's server changed). Never sent back. */
    secret: TokenSecret.optional(),
  })
  .strict();
export type SaveProfileInput = z.infer<typeof SaveProfileInput>;

export const profilesChannels = defineChannels({
  /** Every profile (and the demo cluster), the profile file's problem if any, and what protects secrets on this machine. */
  'profiles.list': { input: noInput, output: ProfilesList },
  /** Create or update a profile; refused with every problem listed. */
  'profiles.save': { input: SaveProfileInput, output: ProfileSummary },
  'profiles.delete': { input: z.object({ id: profileId }).strict(), output: z.object({ deleted: z.boolean() }).strict() },
  /** Profiles as a JSON text to save to a file; secrets are never included. */
  'profiles.export': {
    input: z.object({ ids: z.array(profileId).max(1000).optional() }).strict(),
    output: z.object({ fileName: z.string(), json: z.string() }).strict(),
  },
  /** Profiles from an exported JSON text; all or nothing, refused with every problem listed. */
  'profiles.import': {
    input: z.object({ json: boundedText(4_000_000) }).strict(),
    output: z.object({ imported: z.array(ProfileSummary) }).strict(),
  },
  'settings.get': { input: noInput, output: AppSettings },
  'settings.set': { input: z.object({ settings: AppSettings.partial() }).strict(), output: AppSettings },
});

export const profilesEvents = defineEvents({
  /** Pushed after any change to the profiles (saved, deleted, imported, the demo started). */
  'profiles.changed': ProfilesList,
  'settings.changed': AppSettings,
});
