/** Copies a text to the clipboard and says so; a refused clipboard is reported, not swallowed. */
import { useState } from 'react';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [outcome, setOutcome] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" aria-label={label} onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="copy-outcome">
        {outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'The clipboard refused; select the text and copy it by hand.' : ''}
      </span>
    </span>
  );
}
