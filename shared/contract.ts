/**
 * The IPC contract: the one place where every channel and event is listed.
 *
 * Each area declares its channels (input and output schemas) and events
 * (payload schemas) in `channels/<area>.ts`; this file joins them. Main
 * validates every input before its handler runs; the preload and the
 * browser-mode bridge are generated from the names below. Types are
 * inferred from the schemas and never written a second time.
 */
import type { z } from 'zod';
import { appChannels, appEvents } from './channels/app';
import { profilesChannels, profilesEvents } from './channels/profiles';
import { doctorChannels, doctorEvents } from './channels/doctor';
import { tasksChannels, tasksEvents } from './channels/tasks';
import { cleanupChannels, cleanupEvents } from './channels/cleanup';
import { inventoryChannels, inventoryEvents } from './channels/inventory';
import { healthChannels, healthEvents } from './channels/health';
import { proxyCheckChannels, proxyCheckEvents } from './channels/proxy-check';
import { placementChannels, placementEvents } from './channels/placement';
import { templatesChannels, templatesEvents } from './channels/templates';
import { rrdChannels, rrdEvents } from './channels/rrd';
import { checksChannels, checksEvents } from './channels/checks';
import { alertsChannels, alertsEvents } from './channels/alerts';
import { historyChannels, historyEvents } from './channels/history';
import { consoleChannels } from './channels/console';
import { networkChannels } from './channels/network';
import { vmMetaChannels } from './channels/vm-meta';
import { exportsChannels } from './channels/exports';
import { cloudInitChannels } from './channels/cloud-init';
import { proxyCredentialsChannels } from './channels/proxy-credentials';
import { handoffChannels } from './channels/handoff';

export { AppInfo, AppStatus } from './channels/app';

export const channels = {
  ...appChannels,
  ...profilesChannels,
  ...doctorChannels,
  ...tasksChannels,
  ...cleanupChannels,
  ...inventoryChannels,
  ...healthChannels,
  ...proxyCheckChannels,
  ...placementChannels,
  ...templatesChannels,
  ...rrdChannels,
  ...checksChannels,
  ...alertsChannels,
  ...historyChannels,
  ...consoleChannels,
  ...networkChannels,
  ...vmMetaChannels,
  ...exportsChannels,
  ...cloudInitChannels,
  ...proxyCredentialsChannels,
  ...handoffChannels,
} as const;

export const events = {
  ...appEvents,
  ...profilesEvents,
  ...doctorEvents,
  ...tasksEvents,
  ...cleanupEvents,
  ...inventoryEvents,
  ...healthEvents,
  ...proxyCheckEvents,
  ...placementEvents,
  ...templatesEvents,
  ...rrdEvents,
  ...checksEvents,
  ...alertsEvents,
  ...historyEvents,
} as const;

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
