/**
 * The read side of write-queue.ts's WriteGuard: a read the database refuses
 * (the disk gone) is logged and answers a fallback instead of throwing, so a
 * window asking for history never crashes on a failing disk.
 */
import type { Logger } from '../../log/logger';

export type GuardedRead = <T>(what: string, read: () => T, fallback: T) => T;

export function createGuardedRead(logger: Logger): GuardedRead {
  return (what, read, fallback) => {
    try {
      return read();
    } catch (error) {
      logger.warn('history database read failed', { what, reason: (error as Error).message });
      return fallback;
    }
  };
}
