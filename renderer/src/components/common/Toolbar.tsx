/** A row of a view's actions and filters, announced as one toolbar. */
import type { ReactNode } from 'react';

export function Toolbar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="toolbar" aria-label={label} className="toolbar">
      {children}
    </div>
  );
}
