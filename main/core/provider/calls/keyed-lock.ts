/**
 * One-slot locks by key (spec entry 19): Create and Delete of one proxy name
 * never interleave. A waiter gives up when its AbortSignal fires, and a key
 * is forgotten once nobody holds or waits for it.
 */
import { transient } from '../rules/errors';

export type Release = () => void;

/** How long a key's last release is remembered: longer than any read that asks about it may be reused (lookup.ts). */
export const RELEASES_KEPT_MS = 60_000;

export class KeyedLock {
  // The tail of each key's queue: a new holder waits for it, then becomes it.
  private readonly tails = new Map<string, Promise<void>>();
  // When each key was last given back (`now`'s ms), for a while: see releasedSince.
  private readonly releases = new Map<string, number>();

  /** `now`: the clock of releases; performance.now() by default, which the reads compared with it use too (lookup.ts). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Whether an operation on `key` ended (gave its slot back) at or after `since`: what a listing asked for at
   * `since` may not show yet. A key never released, or not within RELEASES_KEPT_MS, has not.
   */
  releasedSince(key: string, since: number): boolean {
    const at = this.releases.get(key);
    return at !== undefined && at >= since;
  }

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
      this.noteRelease(key);
      release();
    };
  }

  private noteRelease(key: string): void {
    const now = this.now();
    this.releases.set(key, now);
    for (const [k, at] of this.releases) if (now - at > RELEASES_KEPT_MS) this.releases.delete(k);
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
