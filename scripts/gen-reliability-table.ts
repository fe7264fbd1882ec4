/** Writes docs/reliability.md from the fault matrix the tests run: `npx tsx scripts/gen-reliability-table.ts`. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reliabilityDocument } from '../test/integration/faults/table';

const target = join(import.meta.dirname, '..', 'docs', 'reliability.md');
writeFileSync(target, await reliabilityDocument(target));
process.stdout.write(`wrote ${target}\n`);
