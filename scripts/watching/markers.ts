/** Where bench-watching's markdown section begins and ends in its output: scripts/bench.ts copies it into docs/performance.md. */
export const MARKDOWN_BEGIN = '--- cost of watching (markdown) ---';
export const MARKDOWN_END = '--- end of cost of watching ---';
