/**
 * The IPC contract: the one place where a channel or an event is declared.
 *
 * A request channel has an input and an output schema; an event has a payload
 * schema. Main validates every input before its handler runs; the preload and
 * the browser-mode bridge are generated from the names below. Types are
 * inferred from the schemas and never written a second time.
 */
import { z } from 'zod';

const MAX_TEXT = 4096;
const text = (max = MAX_TEXT) => z.string().max(max);
const noInput = z.object({}).strict();

export const AppInfo = z
  .object({
    name: z.string(),
    version: z.string(),
    /** `electron` inside the desktop shell, `browser` when served by the loopback host. */
    mode: z.enum(['electron', 'browser']),
    runtime: z.object({ node: z.string(), electron: z.string().nullable(), chrome: z.string().nullable(), platform: z.string() }).strict(),
  })
  .strict();
export type AppInfo = z.infer<typeof AppInfo>;

export const AppStatus = z
  .object({
    /** Seconds since main started: proves events flow. */
    uptimeSeconds: z.number().nonnegative(),
    at: z.string(),
  })
  .strict();
export type AppStatus = z.infer<typeof AppStatus>;

export const channels = {
  /** Name, version and runtime of the app. */
  'app.version': { input: noInput, output: AppInfo },
  /** Echo a short text back: the transport's round-trip check. */
  'app.echo': { input: z.object({ text: text(256) }).strict(), output: z.object({ text: z.string() }).strict() },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  /** Pushed by main every few seconds and on demand: the renderer's liveness signal. */
  'app.status': AppStatus,
} as const satisfies Record<string, z.ZodType>;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const channelNames = Object.keys(channels) as ChannelName[];
export const eventNames = Object.keys(events) as EventName[];

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.hasOwn(channels, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}
