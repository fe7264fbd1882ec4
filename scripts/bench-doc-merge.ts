/**
 * `npx tsx scripts/bench.ts inventory,restart --write-rows`: a partial run
 * that writes its benchmarks' rows (and their "what it measures" line) into
 * docs/performance.md in place, leaving every other row, the machine and the
 * date as the last full run wrote them; a benchmark new to the file goes
 * after the rows of the one before it in bench.ts's list. (bench.ts also
 * rewrites the reading notes, which are built from constants.)
 */
export interface MergedBench {
  name: string;
  rows: string[];
  bullet: string;
}

const rowOf = (name: string) => (line: string) => line.startsWith(`| ${name} |`);
const bulletOf = (name: string) => (line: string) => line.startsWith(`- **${name}** (`);

/** Replaces `lines` matching `is` with `fresh`, or inserts `fresh` after the last line matching `after` (else at `fallback`). */
function replace(
  lines: string[],
  is: (l: string) => boolean,
  fresh: string[],
  after: ((l: string) => boolean)[],
  fallback: number,
): string[] {
  const at = lines.findIndex(is);
  if (at >= 0) {
    const rest = lines.filter((l, i) => i < at || !is(l));
    rest.splice(at, 0, ...fresh);
    return rest;
  }
  for (const prior of after) {
    const last = lines.findLastIndex(prior);
    if (last >= 0) return [...lines.slice(0, last + 1), ...fresh, ...lines.slice(last + 1)];
  }
  return [...lines.slice(0, fallback), ...fresh, ...lines.slice(fallback)];
}

/** `order`: every benchmark's name in bench.ts's order. */
export function mergeRows(doc: string, runs: MergedBench[], order: string[]): string {
  let lines = doc.split('\n');
  for (const run of runs) {
    const before = order.slice(0, order.indexOf(run.name)).reverse();
    const tableEnd = lines.findIndex((l, i) => i > 0 && lines[i - 1]!.startsWith('|') && !l.startsWith('|'));
    lines = replace(lines, rowOf(run.name), run.rows, before.map(rowOf), tableEnd < 0 ? lines.length : tableEnd);
    lines = replace(lines, bulletOf(run.name), [run.bullet], before.map(bulletOf), lines.length);
  }
  return lines.join('\n');
}
