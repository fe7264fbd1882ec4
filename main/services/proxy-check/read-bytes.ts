/** Reads from a socket in paused mode, so nothing after what is asked for is lost to a later reader. */
import type { Socket } from 'node:net';

export class ClosedEarly extends Error {
  constructor() {
    super('the connection closed before the answer was complete');
  }
}

/**
 * Waits until `take` finds what it needs in the bytes read so far (it returns
 * how many it uses; the rest goes back to the socket), the socket ends or
 * fails, or `signal` aborts (rejects with its reason).
 */
function readUntil(socket: Socket, take: (buffered: Buffer) => number | undefined, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const cleanup = () => {
      socket.off('readable', attempt);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    function attempt() {
      let chunk: Buffer | null;
      while ((chunk = socket.read() as Buffer | null) !== null) buffered = Buffer.concat([buffered, chunk]);
      let used: number | undefined;
      try {
        used = take(buffered);
      } catch (e) {
        cleanup();
        reject(e as Error);
        return;
      }
      if (used === undefined) {
        if (socket.readableEnded) onEnd();
        return;
      }
      cleanup();
      if (used < buffered.length) socket.unshift(buffered.subarray(used));
      resolve(buffered.subarray(0, used));
    }
    const onEnd = () => {
      cleanup();
      reject(new ClosedEarly());
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    const onAbort = () => {
      cleanup();
      reject(signal!.reason as Error);
    };
    if (signal?.aborted) return onAbort();
    socket.on('readable', attempt);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
    attempt();
  });
}

/** Exactly `count` bytes. */
export function readBytes(socket: Socket, count: number, signal?: AbortSignal): Promise<Buffer> {
  return readUntil(socket, (buffered) => (buffered.length >= count ? count : undefined), signal);
}

/** An HTTP response head, up to and including the blank line; `check` sees what came so far and throws if it cannot become one. */
export function readHead(socket: Socket, check: (sofar: Buffer) => void, signal?: AbortSignal): Promise<Buffer> {
  return readUntil(
    socket,
    (buffered) => {
      const end = buffered.indexOf('\r\n\r\n');
      check(end === -1 ? buffered : buffered.subarray(0, end + 4));
      return end === -1 ? undefined : end + 4;
    },
    signal,
  );
}
