/**
 * A dialog's live preview: main is asked for `input` a moment after the last
 * change (150 ms), an answer to an older input is dropped, and the last
 * answer is kept as its value or its error. `input` undefined: nothing asked.
 * Used by the Export and the Hand to Kubernetes dialogs.
 */
import { useEffect, useState } from 'react';
import type { AppErrorValue, Envelope } from '../../../../shared/errors';

const DELAY_MS = 150;

export function useDebouncedAnswer<I, T>(
  input: I | undefined,
  request: (input: I) => Promise<Envelope<T>>,
): { value?: T; error?: AppErrorValue } | undefined {
  const [answer, setAnswer] = useState<{ value?: T; error?: AppErrorValue }>();
  // The key stands for the input: a new object every render.
  const key = input === undefined ? '' : JSON.stringify(input);
  useEffect(() => {
    if (input === undefined) return;
    let current = true;
    const timer = setTimeout(() => {
      void request(input).then((a) => {
        if (current) setAnswer(a.ok ? { value: a.value } : { error: a.error });
      });
    }, DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  return answer;
}
