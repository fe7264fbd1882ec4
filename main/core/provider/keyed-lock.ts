/**
 * One-slot locks by key (spec entry 19): Create and Delete of one proxy name
 * never interleave. A waiter gives up when its AbortSignal fires, and a key
 * is forgotten once nobody holds or waits for it.
 */
import { transient } from './errors';

export type Release = () => void;

export class KeyedLock {
  // The tail of each key's queue: a new holder waits for it, then becomes it.
  private readonly tails = new Map<string, Promise<void>>();

  get size(): number {
    return this.tails.size;
  }

  async acquire(key: string, signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    // Queue behind the previous holder whether or not we give up, so order holds.
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    // Forget the key once this slot is the last and has been given back.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    try {
      await abortable(previous, signal);
    } catch (e) {
      // Our slot passes straight through once the previous holder is done.
      release();
      throw transient(`gave up waiting for another operation on ${key}: ${String((e as Error).message)}`);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }
}

function abortable(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
