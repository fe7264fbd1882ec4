/**
 * What the crash test's child runs: the history store on the parent's file,
 * recording checks as fast as it can in batches of 50 and printing the
 * number committed after each batch. The parent SIGKILLs it mid-stream.
 */
import { createLogger } from '../../../../main/log/logger';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: write-loop.ts <file>');
const BATCH = 50;
// A clock near the epoch: the rows' `at` (0, 1, 2...) stay inside the retention.
const store = openHistoryDatabase({
  file,
  batchSize: BATCH,
  flushIntervalMs: 3_600_000,
  logger: createLogger({ sinks: [] }),
  now: () => 10_000,
});
const already = store.checks('crash', 1, 0).length;

let seq = already;
function burst(): void {
  for (let i = 0; i < BATCH; i++) {
    // `at` carries the sequence number so the parent can check there is no gap.
    store.recordCheck({
      clusterId: 'crash',
      vmid: 1,
      at: seq,
      ok: seq % 7 !== 0,
      latencyMs: 20 + (seq % 13),
      egressAddress: `203.0.113.${seq % 5}`,
      origin: 'scheduled',
    });
    seq++;
  }
  process.stdout.write(`committed ${seq}\n`);
  setImmediate(burst);
}
burst();
