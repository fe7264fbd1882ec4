/** Reads an exact number of bytes from a socket in paused mode, so nothing after them is lost to a later reader. */
import type { Socket } from 'node:net';

export class ClosedEarly extends Error {
  constructor() {
    super('the connection closed before the answer was complete');
  }
}

export function readBytes(socket: Socket, count: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      socket.off('readable', attempt);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
    };
    function attempt() {
      const chunk = socket.read(count) as Buffer | null;
      if (chunk === null) return;
      cleanup();
      // After the end, read() hands over whatever is left, possibly short.
      if (chunk.length < count) reject(new ClosedEarly());
      else resolve(chunk);
    }
    const onEnd = () => {
      cleanup();
      reject(new ClosedEarly());
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    socket.on('readable', attempt);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    attempt();
  });
}
