/**
 * Main's own messages, typed: what one part of main tells another in-process (a settings change, an inventory
 * delta, a node-health update, a task's new state, a check's result), each listener subscribed to one name and handed that name's
 * payload type, so no listener casts. Separate from the window event bus (ipc/event-bus.ts), which publishes
 * contract events to the windows: that bus hands each event it publishes that main also acts on to this one,
 * after checking it against the contract, so main's listeners get exactly what the windows get.
 */
import type { EventPayload } from '../../shared/contract';
import type { Logger } from '../log/logger';

/** The events main acts on itself, by name. */
export interface MainEvents {
  'settings.changed': EventPayload<'settings.changed'>;
  'inventory.delta': EventPayload<'inventory.delta'>;
  'health.update': EventPayload<'health.update'>;
  'tasks.update': EventPayload<'tasks.update'>;
  'checks.result': EventPayload<'checks.result'>;
  'checks.targets': EventPayload<'checks.targets'>;
}
export type MainEventName = keyof MainEvents;
export type MainListener<E extends MainEventName> = (payload: MainEvents[E]) => void;

/** One message of main's own, its payload tied to its name. */
export type MainMessage = { [E in MainEventName]: { name: E; payload: MainEvents[E] } }[MainEventName];

const MAIN_EVENT_NAMES: ReadonlySet<string> = new Set<MainEventName>([
  'settings.changed',
  'inventory.delta',
  'health.update',
  'tasks.update',
  'checks.result',
  'checks.targets',
]);

/**
 * Whether a contract event is one main acts on. The window bus asks it with a payload it has just validated
 * against that event's schema, which is what makes the payload the name's type.
 */
export function isMainMessage(message: { name: string; payload: unknown }): message is MainMessage {
  return MAIN_EVENT_NAMES.has(message.name);
}

export interface MainBus {
  emit(message: MainMessage): void;
  on<E extends MainEventName>(name: E, listener: MainListener<E>): () => void;
}

type Listeners = { [E in MainEventName]: Set<MainListener<E>> };

export function createMainBus(log: Logger): MainBus {
  const listeners: Listeners = {
    'settings.changed': new Set(),
    'inventory.delta': new Set(),
    'health.update': new Set(),
    'tasks.update': new Set(),
    'checks.result': new Set(),
    'checks.targets': new Set(),
  };
  const deliver = <E extends MainEventName>(name: E, payload: MainEvents[E]): void => {
    for (const listener of listeners[name]) {
      try {
        listener(payload);
      } catch (e) {
        log.error('event listener failed', { event: name, error: e });
      }
    }
  };
  return {
    emit(message) {
      // One case per name: each narrows the payload to its name's type.
      switch (message.name) {
        case 'settings.changed':
          return deliver(message.name, message.payload);
        case 'inventory.delta':
          return deliver(message.name, message.payload);
        case 'health.update':
          return deliver(message.name, message.payload);
        case 'tasks.update':
          return deliver(message.name, message.payload);
        case 'checks.result':
          return deliver(message.name, message.payload);
        case 'checks.targets':
          return deliver(message.name, message.payload);
      }
    },
    on(name, listener) {
      listeners[name].add(listener);
      return () => listeners[name].delete(listener);
    },
  };
}
