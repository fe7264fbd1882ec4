/**
 * The one ticking clock of the renderer: every view that shows a relative time, an age or a running duration
 * reads `now` from useNow, so "4 seconds ago" becomes "5 seconds ago" without waiting for an event. One timer
 * serves every subscriber, and only while someone listens; the time is whole seconds, so components memoised on
 * it redraw once a second at most.
 */
import { useEffect, useState } from 'react';

const TICK_MS = 1000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let current = wholeSecond();

function wholeSecond(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  current = wholeSecond();
  timer ??= setInterval(() => {
    current = wholeSecond();
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Epoch milliseconds, whole seconds, moving every second while `ticking` (a list with nothing live may pass false). */
export function useNow(ticking = true): number {
  const [now, setNow] = useState(wholeSecond);
  useEffect(() => {
    if (!ticking) return;
    setNow(wholeSecond());
    return subscribe(() => setNow(current));
  }, [ticking]);
  return now;
}
