/**
 * Events main pushes to every renderer. Payloads are validated against the
 * contract before they go out, so a bug in a service shows up in main's log,
 * not as a broken view. Transports (Electron, the browser-mode socket)
 * subscribe once and fan out to their windows or sockets.
 */
import { events, type EventName, type EventPayload } from '../../shared/contract';
import type { Logger } from '../log/logger';

export type EventListener = (name: EventName, payload: unknown) => void;

export interface EventBus {
  publish<E extends EventName>(name: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventBus(log: Logger): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(name, payload) {
      const checked = events[name].safeParse(payload);
      if (!checked.success) {
        log.error('event dropped: payload outside the contract', { event: name, issue: checked.error.issues[0]?.message });
        return;
      }
      for (const listener of listeners) {
        try {
          listener(name, checked.data);
        } catch (e) {
          log.error('event listener failed', { event: name, error: e });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
