/**
 * A latency sparkline as one inline SVG path: cheap enough for every row of
 * the Proxies table (no chart library, no canvas, nothing measured). A failed
 * check (null) breaks the line and is marked by a tick at the bottom, so a
 * failure is not drawn as "fast". Decorative: its caller writes the numbers.
 */

/** The path's `d` for values in a width × height box; y from 0 to the highest value, nulls as gaps. */
export function sparkPath(values: readonly (number | null)[], width: number, height: number): { line: string; gaps: string } {
  const max = Math.max(1, ...values.filter((v): v is number => v !== null));
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  let line = '';
  let gaps = '';
  let pen = false;
  values.forEach((v, i) => {
    const x = (values.length > 1 ? i * step : width / 2).toFixed(1);
    if (v === null) {
      gaps += `M${x} ${height}v-3`;
      pen = false;
      return;
    }
    const y = (height - 1 - (v / max) * (height - 2)).toFixed(1);
    line += `${pen ? 'L' : 'M'}${x} ${y}`;
    pen = true;
  });
  return { line, gaps };
}

export function Sparkline({ values, width = 60, height = 16 }: { values: readonly (number | null)[]; width?: number; height?: number }) {
  if (values.length === 0) return null;
  const { line, gaps } = sparkPath(values, width, height);
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
      {line && <path d={line} className="sparkline-line" />}
      {gaps && <path d={gaps} className="sparkline-gap" />}
    </svg>
  );
}
