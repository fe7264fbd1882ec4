/** Chart colours come from the same CSS variables as the rest of the page, read when the theme changes. */
import { useEffect, useState } from 'react';

export interface ChartColours {
  text: string;
  grid: string;
  read(variable: string): string;
}

function readColours(): ChartColours {
  const style = getComputedStyle(document.documentElement);
  const read = (variable: string) => style.getPropertyValue(variable).trim() || 'currentColor';
  return { text: read('--muted'), grid: read('--border'), read };
}

/** Re-reads the palette whenever `data-theme` on <html> changes. */
export function useChartColours(): ChartColours {
  const [colours, setColours] = useState(readColours);
  useEffect(() => {
    const observer = new MutationObserver(() => setColours(readColours()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return colours;
}
