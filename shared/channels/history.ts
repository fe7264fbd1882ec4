/**
 * The history database (issue 15): where the file is, how big, which schema,
 * and whether it had to be moved aside or runs in memory. Settings shows it
 * beside the retention (AppSettings.historyRetentionDays).
 */
import { z } from 'zod';
import { defineChannels, defineEvents, noInput } from '../define';

export const HistoryStatusView = z
  .object({
    /** The database file in the app's data folder; ':memory:' when there is none. */
    path: z.string(),
    sizeBytes: z.number().int().min(0),
    schemaVersion: z.number().int(),
    /** Days kept (AppSettings.historyRetentionDays or the default). */
    retentionDays: z.number().int(),
    /** A corrupt or unreadable file moved aside at start: where it went and why. */
    movedAside: z.object({ path: z.string(), reason: z.string() }).strict().optional(),
    /** The file could not be opened: history is kept in memory, and this says why. */
    degraded: z.string().optional(),
    /** The file is locked by another program: the app keeps trying it and moves this session's history into it once it opens. */
    reopening: z.boolean().optional(),
  })
  .strict();
export type HistoryStatusView = z.infer<typeof HistoryStatusView>;

export const historyChannels = defineChannels({
  'history.status': { input: noInput, output: HistoryStatusView },
});

export const historyEvents = defineEvents({});
