/**
 * A stand-in for the preload's DesktopApi, for renderer tests: answers
 * requests from a table and lets the test push events, the way Podman
 * Desktop's renderer tests stub their preload.
 */
import { buildDesktopApi, type DesktopApi } from '../../shared/api';
import type { ChannelName, EventName, EventPayload } from '../../shared/contract';
import type { Envelope } from '../../shared/errors';

type Responder = (input: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>;

export interface StubApi {
  api: DesktopApi;
  calls: [ChannelName, unknown][];
  answer(channel: ChannelName, responder: Responder): void;
  push<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

export function createStubApi(): StubApi {
  const responders = new Map<ChannelName, Responder>();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const calls: [ChannelName, unknown][] = [];
  const api = buildDesktopApi('browser', {
    async send(channel, input) {
      calls.push([channel, input]);
      const responder = responders.get(channel);
      if (!responder) return { ok: false, error: { kind: 'transient', message: `no stub answer for ${channel}`, hint: '' } };
      return responder(input);
    },
    listen(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  });
  return {
    api,
    calls,
    answer: (channel, responder) => responders.set(channel, responder),
    push: (event, payload) => {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
}
