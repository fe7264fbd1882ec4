/**
 * The renderer's view of main: one function per request channel and one
 * subscribe per event, generated from the contract. The Electron preload and
 * the browser-mode WebSocket bridge both build exactly this shape with
 * `buildDesktopApi`, so nothing in the renderer knows which transport it has.
 */
import type { Envelope } from './errors';
import {
  channelNames,
  eventNames,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  type EventName,
  type EventPayload,
} from './contract';

export type Unsubscribe = () => void;

export type RequestFunctions = {
  readonly [C in ChannelName]: (input: ChannelInput<C>) => Promise<Envelope<ChannelOutput<C>>>;
};
export type EventSubscriptions = {
  readonly [E in EventName]: (listener: (payload: EventPayload<E>) => void) => Unsubscribe;
};

export interface DesktopApi {
  readonly transport: 'electron' | 'browser';
  readonly request: RequestFunctions;
  readonly on: EventSubscriptions;
}

/** What a transport must provide: send one request, listen to one event. */
export interface TransportPort {
  send(channel: ChannelName, input: unknown): Promise<unknown>;
  listen(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

export function buildDesktopApi(transport: DesktopApi['transport'], port: TransportPort): DesktopApi {
  const request = Object.fromEntries(
    channelNames.map((name) => [name, (input: unknown) => port.send(name, input)]),
  ) as unknown as RequestFunctions;
  const on = Object.fromEntries(
    eventNames.map((name) => [name, (listener: (payload: unknown) => void) => port.listen(name, listener)]),
  ) as unknown as EventSubscriptions;
  return Object.freeze({ transport, request: Object.freeze(request), on: Object.freeze(on) });
}

/** Electron IPC channel names under the hood; never exposed to the renderer. */
export const ipcRequestChannel = (name: ChannelName) => `egress:req:${name}`;
export const ipcEventChannel = (name: EventName) => `egress:evt:${name}`;
