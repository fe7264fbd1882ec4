/** docs/reliability.md is generated from the matrix the tests run: it must never drift from it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dayTwoMatrix, dayTwoOperations, faults, matrix, operations } from './matrix';
import { reliabilityDocument } from './table';

describe('docs/reliability.md', () => {
  it('equals the table generated from the matrix (rerun `npx tsx scripts/gen-reliability-table.ts`)', async () => {
    const path = join(import.meta.dirname, '../../../docs/reliability.md');
    expect(readFileSync(path, 'utf8')).toBe(await reliabilityDocument(path));
  });

  it('has a verdict for every operation under every fault, and a reason wherever a cell is not run', () => {
    const rows = [...operations.map((op) => [op, matrix[op]] as const), ...dayTwoOperations.map((op) => [op, dayTwoMatrix[op]] as const)];
    for (const [op, row] of rows) {
      for (const { id } of faults) {
        const e = row[id];
        expect(e, `${op} × ${id}`).toBeDefined();
        if (e.outcome === 'n/a' || e.outcome === 'elsewhere') expect(e.why.length, `${op} × ${id}`).toBeGreaterThan(10);
      }
    }
  });
});
