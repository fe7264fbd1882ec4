/**
 * The start rows of the fault matrix (issue 22): a locked history file and a read-only data folder at start, on each
 * path the app starts by (the composed app, browser mode as a process). The read-only cells need a real read-only
 * disk (a tmpfs the test mounts and remounts read-only; root ignores file modes, so chmod would prove nothing) and
 * the process cells the built renderer; each skips saying why when it cannot run.
 */
import { afterEach, describe, it } from 'vitest';
import { smallDiskMissing } from '../../support/small-disk';
import { rendererMissingReason } from '../../support/web-host';
import { runStartCell, teardown } from './app-start';
import { startFaults, startMatrix, startPaths, type StartFaultId, type StartPath } from './matrix';

const diskMissing = smallDiskMissing();
const rendererMissing = rendererMissingReason();

function whyNot(path: StartPath, fault: StartFaultId): string | undefined {
  if (fault === 'readOnlyAtStart' && diskMissing) return diskMissing;
  if (path === 'browserHost' && rendererMissing) return rendererMissing;
  return undefined;
}

afterEach(async () => {
  // Every step runs, whatever an earlier one threw: a disk left mounted would outlive the test.
  const failures: unknown[] = [];
  for (const down of teardown.splice(0).reverse()) await Promise.resolve().then(down).catch((e: unknown) => failures.push(e));
  if (failures.length) throw failures[0];
});

describe('fault matrix: the data folder at start', () => {
  for (const { id, label } of startFaults) {
    for (const path of startPaths) {
      const skip = whyNot(path, id);
      if (skip) console.log(`[fault matrix: ${label} × ${path}] skipped: ${skip}`);
      it.skipIf(skip !== undefined)(`${label} × ${path}: ${startMatrix[path][id].outcome}`, () => runStartCell(path, id), 60_000);
    }
  }
});
