/** Channels and events about the app itself. */
import { z } from 'zod';
import { defineChannels, defineEvents, noInput } from '../define';

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

export const appChannels = defineChannels({
  /** Name, version and runtime of the app. */
  'app.version': { input: noInput, output: AppInfo },
  /** Echo a short text back: the transport's round-trip check (also pushes `app.status`). */
  'app.echo': { input: z.object({ text: z.string().max(256) }).strict(), output: z.object({ text: z.string() }).strict() },
});

export const appEvents = defineEvents({
  /** Pushed by main every few seconds and on demand: the renderer's liveness signal. */
  'app.status': AppStatus,
});
