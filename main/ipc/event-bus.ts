/**
 * Events main pushes to every renderer. Payloads are validated against the
 * contract before they go out, so a bug in a service shows up in main's log,
 * not as a broken view. Transports (Electron, the browser-mode socket)
 * subscribe once and fan out to their windows or sockets; nothing else
 * subscribes here. What main itself acts on (settings, inventory, health,
 * task updates) goes, validated, to the typed main bus first (`bus.main`,
 * events/main-bus.ts), so main's listeners run before the windows hear of it.
 */
import { events, type EventName, type EventPayload } from '../../shared/contract';
import { createMainBus, isMainMessage, type MainBus } from '../events/main-bus';
import type { Logger } from '../log/logger';

export type EventListener = (name: EventName, payload: unknown) => void;

export interface EventBus {
  publish<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** For the transports: every event, to forward to the windows as it is. */
  subscribe(listener: EventListener): () => void;
  /** Main's own listeners: one event name each, its payload typed. */
  readonly main: MainBus;
}

export function createEventBus(log: Logger, main: MainBus = createMainBus(log)): EventBus {
  const listeners = new Set<EventListener>();
  return {
    main,
    publish(name, payload) {
      const checked = events[name].safeParse(payload);
      if (!checked.success) {
        log.error('event dropped: payload outside the contract', { event: name, issue: checked.error.issues[0]?.message });
        return;
      }
      const message = { name, payload: checked.data };
      if (isMainMessage(message)) main.emit(message);
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
