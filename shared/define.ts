/** Helpers to declare channels and events; used only by the files under channels/. */
import { z } from 'zod';

export interface ChannelSpec {
  input: z.ZodType;
  output: z.ZodType;
}

export const noInput = z.object({}).strict();

/** Bounded strings: every text a renderer sends has a ceiling, so a huge payload is refused, not processed. */
export const boundedText = (max = 4096) => z.string().max(max);

export function defineChannels<const T extends Record<string, ChannelSpec>>(channels: T): T {
  return channels;
}

export function defineEvents<const T extends Record<string, z.ZodType>>(events: T): T {
  return events;
}
