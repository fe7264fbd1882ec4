/**
 * The data-folder rows of the fault matrix (disk full, read-only, corrupt
 * journal) for every operation, on a real small disk: run, judge what the
 * user sees, check the requests and the journal, take the fault away, take
 * the operation up again, check the cluster.
 */
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { mountSmallDisk, smallDiskMissing, type SmallDisk } from '../../support/small-disk';
import { freshRequest, startCell, type Cell } from './cell';
import {
  armDataFolder,
  checkCorruptJournalKept,
  checkRequests,
  performDataFolder,
  retryDataFolder,
  type DataFolderFault,
} from './data-folder';
import { dataFolderFaults, faults, matrix, matrixVersions, operations } from './matrix';
import { assertClean, assertStillServes } from './run-cell';
import { judge } from './suite';

const missing = smallDiskMissing();
if (missing) console.log(`[fault matrix: data folder] skipped: ${missing}`);

let cell: Cell | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  await cell?.close();
  cell = undefined;
  disk?.unmount();
  disk = undefined;
});

describe.skipIf(missing !== undefined).each(matrixVersions)('fault matrix: the data folder on Proxmox VE %s', (version) => {
  for (const { id, label } of faults.filter((f) => dataFolderFaults.has(f.id))) {
    const fault = id as DataFolderFault;
    for (const op of operations) {
      const expected = matrix[op][fault];
      it(`${label} × ${op}: ${expected.outcome}${'kind' in expected ? ` ${expected.kind}` : ''}`, async () => {
        disk = mountSmallDisk(2048);
        cell = await startCell({ journalDir: join(disk.dir, 'tasks'), version });
        const request = freshRequest();
        const run = await armDataFolder(cell, op, fault, disk);
        const seen = await performDataFolder(cell, op, run, request);
        judge(expected, seen);
        await checkRequests(op, run);
        if (fault === 'corruptJournal') checkCorruptJournalKept(cell);
        cell.setHook(undefined);
        if (fault === 'diskFull') disk.free();
        if (fault === 'readOnly') disk.writable();
        await assertStillServes(cell);
        await retryDataFolder(cell, op, fault, run, seen, request);
        assertClean(cell);
      });
    }
  }
});
