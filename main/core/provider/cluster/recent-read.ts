/**
 * A read whose answer serves the callers that follow for a short while
 * (issue 11): the template's config (template-reads.ts) and the create
 * lookup's listing (lookup.ts). A caller joins a read still on the wire or
 * answered at most `maxAgeMs` ago; a read that fails is not kept, and a
 * caller whose joined read failed (its first caller gave up, say) reads for
 * itself unless its own signal fired.
 */
export interface RecentRead<T> {
  /** When the read was asked for (ms on the caller's clock): its answer is at least that fresh. */
  at: number;
  value: Promise<T>;
}

export interface ReadRecentOptions<T> {
  now: number;
  maxAgeMs: number;
  /** Whether the held read may serve this caller (besides its age); default yes. */
  usable?: (held: RecentRead<T>) => boolean;
  signal?: AbortSignal | undefined;
  read: () => Promise<T>;
}

export async function readRecent<T>(reads: Map<string, RecentRead<T>>, key: string, o: ReadRecentOptions<T>): Promise<T> {
  const held = reads.get(key);
  if (held && o.now - held.at <= o.maxAgeMs && (o.usable?.(held) ?? true)) {
    try {
      return await held.value;
    } catch {
      // The read this caller joined failed (or its caller gave up): this one reads for itself below.
      o.signal?.throwIfAborted();
    }
  }
  const read: RecentRead<T> = { at: o.now, value: o.read() };
  reads.set(key, read);
  try {
    return await read.value;
  } catch (e) {
    if (reads.get(key) === read) reads.delete(key);
    throw e;
  }
}

/** One map of reads per owner (a client, a lock table), dropped with it. */
export function readsPer<O extends object, T>(): (owner: O) => Map<string, RecentRead<T>> {
  const all = new WeakMap<O, Map<string, RecentRead<T>>>();
  return (owner) => {
    let reads = all.get(owner);
    if (!reads) all.set(owner, (reads = new Map()));
    return reads;
  };
}
